import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit run`: the whole pipeline, for cron.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the pipeline: catalog, receipts, sales reports, fraud detection, reconciliation, reports.",
        discussion: """
            Settings come from --config (TOML), overridden by IAP_AUDIT_* environment variables, overridden by \
            flags. --demo uses the embedded database (database iap_audit_demo) and the shipped examples/ data (found \
            beside the working directory or the installed binary; else the built-in generator writes the same files \
            into ~/.cache/iap-audit/examples), and writes its reports into ./out, starting at out/index.html. A second run at the same time exits 75 at once. SIGINT/SIGTERM finish the \
            file in progress, record the run as interrupted and exit 130/143.
            """)

    @OptionGroup var global: GlobalOptions

    /// The embedded database of `--demo`, apart from the default one so the demo never mixes with real data.
    static let demoDatabase = "iap_audit_demo"

    @Option(help: "A TOML configuration file (see `iap-audit config check`).")
    var config: String?

    @Flag(help: "Run on the shipped example data and the embedded demo database.")
    var demo = false

    @Option(help: "A JSON catalog to import first.")
    var catalog: String?

    @Option(name: .customLong("receipts"), help: "A receipt file or directory (repeatable).")
    var receiptPaths: [String] = []

    @Option(name: .customLong("sales"), help: "A sales or financial report file or directory (repeatable).")
    var salesPaths: [String] = []

    @Option(help: "Directory the reports are written to (default: out).")
    var out: String?

    @Option(name: .customLong("report"), help: "A report to write (repeatable; default: every batch report).")
    var reports: [String] = []

    @Option(help: "Write run metrics in Prometheus text format to this file (atomically).")
    var metricsFile: String?

    @Flag(help: "Read and validate everything, keep nothing, write no reports.")
    var dryRun = false

    @Flag(help: "Read every input file, also those stored before and unchanged since (same path, size and mtime).")
    var rehash = false

    @Flag(help: "Do not fetch from Apple first, even with an [apple.*] section configured.")
    var noFetch = false

    func validate() throws {
        if demo && (catalog != nil || !receiptPaths.isEmpty || !salesPaths.isEmpty || config != nil) {
            throw ValidationError("--demo brings its own data; drop --config, --catalog, --receipts and --sales")
        }
    }

    func run() throws {
        let stop = SignalHandling.installStopHandlers()
        var exitCode: Int32 = 0
        var summary = RunSummary()
        defer {
            if let metricsFile {
                let text = MetricsFile.text(summary: summary, exitCode: exitCode, finishedAt: Date())
                do { try MetricsFile.write(text, to: metricsFile) } catch {
                    FileHandle.standardError.write(Data("iap-audit: \(error)\n".utf8))
                }
            }
        }
        do {
            try runReportingFailure {
                let (resolved, logger) = try global.resolve { options in
                    options.configPath = config
                    options.catalogPath = catalog
                    options.receiptPaths = receiptPaths
                    options.salesPaths = salesPaths
                    options.outputDirectory = out
                    options.reports = reports
                    options.isRehash = rehash
                    if demo { options.defaultDatabase = Self.demoDatabase }
                }
                let examples = try demo ? ExampleData.locateOrGenerate() : nil
                let plan = try resolved.runPlan(examples: examples, fetch: !noFetch, isDryRun: dryRun)
                let workspace = try Workspace(settings: resolved.settings, logger: logger)
                workspace.onProgress = TerminalProgress.handler(logFormat: resolved.logFormat)
                summary = try workspace.run(plan, stop: stop)
                return printed(
                    lines: summary.printedLines(
                        outputDirectory: plan.outputDirectory, demoDatabase: demo ? Self.demoDatabase : nil),
                    problems: summary.problems, outcome: summary.outcome)
            }
        } catch let error as ExitCode {
            exitCode = error.rawValue
            throw error
        }
    }
}
