import ArgumentParser
import Foundation
import IAPAudit
import Logging

/// `iap-audit run`: the whole pipeline, for cron.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the pipeline: import the catalog, ingest receipts, write reports.",
        discussion: """
            --demo uses the embedded database (database iap_audit_demo) and the shipped examples/ data, and writes \
            its reports into ./out. A second run at the same time exits 75 at once.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Run on the shipped example data and the embedded demo database.")
    var demo = false

    @Option(help: "A JSON catalog to import first.")
    var catalog: String?

    @Option(name: .customLong("receipts"), help: "A receipt file or directory (repeatable).")
    var receiptPaths: [String] = []

    @Option(help: "Directory the reports are written to.")
    var out: String = "out"

    @Option(name: .customLong("report"), help: "A report to write (repeatable; default: every batch report).")
    var reports: [String] = []

    func validate() throws {
        if demo && (catalog != nil || !receiptPaths.isEmpty) {
            throw ValidationError("--demo brings its own data; drop --catalog and --receipts")
        }
    }

    func run() throws {
        try runReportingFailure {
            var plan: RunPlan
            let settings: Settings
            let logger: Logger
            if demo {
                guard
                    let examples = ExampleData.locate(
                        executablePath: CommandLine.arguments[0],
                        workingDirectory: FileManager.default.currentDirectoryPath)
                else {
                    throw IAPAuditError.input("cannot find the examples/ folder; run from the iap-audit checkout")
                }
                (settings, logger) = try global.settings(embeddedDatabase: "iap_audit_demo")
                plan = ExampleData.plan(examples: examples, outputDirectory: out)
            } else {
                (settings, logger) = try global.settings()
                plan = RunPlan(outputDirectory: out)
                plan.catalogPath = catalog
                plan.receiptPaths = receiptPaths
            }
            plan.reports = reports
            let summary = try Workspace(settings: settings, logger: logger).run(plan)
            if let catalog = summary.catalog {
                print("catalog: \(catalog.apps) apps, \(catalog.products) products, \(catalog.retired) retired")
            }
            SummaryPrinter.print(summary.receipts)
            print("reports: \(summary.reportsWritten.count) files in \(out)/")
            return settings.isStrict && summary.receipts.quarantined > 0 ? ExitCodes.dataError : 0
        }
    }
}
