import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit ingest receipts|sales PATH…`.
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Load input files into the database.",
        subcommands: [IngestReceiptsCommand.self, IngestSalesCommand.self])
}

/// `iap-audit ingest receipts PATH…`.
struct IngestReceiptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipts",
        abstract: "Load recorded receipts (.json, .jsonl, .ndjson, gzip of each; directories recursively).",
        discussion: "Each file is stored once by content hash and atomically; unreadable records are quarantined.")

    @OptionGroup var options: IngestOptions

    func run() throws {
        try runReportingFailure {
            let (workspace, stop) = try options.openWorkspace()
            workspace.onProgress = TerminalProgress.handler(logFormat: options.global.logFormat ?? .plain)
            let summary = try workspace.ingestReceipts(paths: options.paths, stop: stop)
            SummaryPrinter.print(summary)
            return workspace.exitCode(of: summary)
        }
    }
}

/// What both ingest subcommands take: the global options and the files or directories to read.
struct IngestOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files or directories.")
    var paths: [String]

    @Flag(
        help: "Read every file, also those stored before and unchanged since (same path, size and modification time).")
    var rehash = false

    /// Installs the stop handlers (a signal ends the ingest after the file in hand), sets up logging and opens the
    /// workspace.
    func openWorkspace() throws -> (Workspace, StopRequest) {
        let stop = SignalHandling.installStopHandlers()
        let (configured, logger) = try global.settings()
        var settings = configured
        settings.isRehash = rehash
        return (try Workspace(settings: settings, logger: logger), stop)
    }
}

/// Prints an ingest summary on stdout, for people and for `grep` in cron mail. The counts add up: records read =
/// stored + already stored + quarantined; whole files quarantined are counted apart.
enum SummaryPrinter {
    static func print(_ summary: IngestSummary, records: String = "records") {
        var files =
            "files: \(summary.filesSeen) seen, \(summary.filesIngested) ingested, "
            + "\(summary.filesAlreadyIngested) already ingested, \(summary.filesIgnored) ignored"
        if summary.filesDeferred > 0 { files += ", \(summary.filesDeferred) still being written" }
        if summary.filesFailed > 0 { files += ", \(summary.filesFailed) failed" }
        var lines = [
            files,
            "\(records): \(summary.records) read, \(summary.stored) stored, \(summary.alreadyStored) already stored, "
                + "\(summary.quarantinedRecords) quarantined",
        ]
        if summary.quarantinedFileProblems > 0 {
            lines.append("whole files quarantined: \(summary.quarantinedFileProblems)")
        }
        if summary.transactionEntries > 0 { lines.append("transaction entries: \(summary.transactionEntries)") }
        for (reason, count) in summary.quarantinedByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("  quarantined \(reason): \(count)")
        }
        if !summary.signedOutcomes.isEmpty {
            let outcomes = summary.signedOutcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            let repeated = summary.signedObjectsAlreadyStored
            lines.append(
                "signed objects: " + outcomes.joined(separator: ", ")
                    + (repeated > 0 ? ", \(repeated) already stored" : ""))
        }
        Swift.print(lines.joined(separator: "\n"))
    }
}
