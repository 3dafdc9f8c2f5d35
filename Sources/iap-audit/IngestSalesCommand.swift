import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit ingest sales PATH…`.
struct IngestSalesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sales",
        abstract: "Load Sales and Trends, financial and subscription reports (.txt, .tsv, .csv, gzip of each).",
        discussion: "Each file is stored once by content hash and atomically, every column kept; bad lines are "
            + "quarantined and findings about a file (header-only, Total_Rows mismatch, …) recorded.")

    @OptionGroup var options: IngestOptions

    func run() throws {
        try runReportingFailure {
            let (workspace, stop) = try options.openWorkspace()
            return printed(try workspace.runAlone(SalesStage(paths: options.paths), stop: stop))
        }
    }
}
