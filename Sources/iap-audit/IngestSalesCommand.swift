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

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Files or directories.")
    var paths: [String]

    func run() throws {
        try runReportingFailure {
            let stop = SignalHandling.installStopHandlers()
            let (settings, logger) = try global.settings()
            let workspace = try Workspace(settings: settings, logger: logger)
            let summary = try workspace.ingestSales(paths: paths, stop: stop)
            SummaryPrinter.print(summary.ingest, records: "rows")
            for (code, count) in summary.findingsByCode.sorted(by: { $0.key < $1.key }) {
                print("  finding \(code): \(count)")
            }
            return workspace.exitCode(of: summary.ingest)
        }
    }
}
