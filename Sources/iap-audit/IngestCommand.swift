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
            return printed(try workspace.runAlone(ReceiptsStage(paths: options.paths), stop: stop))
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
        return (try global.openWorkspace { $0.isRehash = rehash }, stop)
    }
}
