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

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files or directories.")
    var paths: [String]

    func run() throws {
        try runReportingFailure {
            let (settings, logger) = try global.settings()
            let workspace = try Workspace(settings: settings, logger: logger)
            workspace.onProgress = TerminalProgress.handler(logFormat: global.logFormat ?? .plain)
            let summary = try workspace.ingestReceipts(paths: paths)
            SummaryPrinter.print(summary)
            return settings.isStrict && summary.quarantined > 0 ? ExitCodes.dataError : 0
        }
    }
}

/// Prints an ingest summary on stdout, for people and for `grep` in cron mail.
enum SummaryPrinter {
    static func print(_ summary: IngestSummary) {
        var lines = [
            "files: \(summary.filesSeen) seen, \(summary.filesIngested) ingested, "
                + "\(summary.filesAlreadyIngested) already ingested, \(summary.filesIgnored) ignored",
            "records: \(summary.records) read, \(summary.stored) stored, \(summary.quarantined) quarantined",
        ]
        if summary.transactionEntries > 0 { lines.append("transaction entries: \(summary.transactionEntries)") }
        for (reason, count) in summary.quarantinedByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("  quarantined \(reason): \(count)")
        }
        Swift.print(lines.joined(separator: "\n"))
    }
}
