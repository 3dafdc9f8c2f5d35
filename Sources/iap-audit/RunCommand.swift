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
                var configuration = try config.map { try RunConfiguration.load(path: $0) } ?? RunConfiguration()
                try configuration.applyEnvironment(ProcessInfo.processInfo.environment)
                var plan: RunPlan
                var settings: Settings
                let logger: CommandLogger
                if demo {
                    let examples = try ExampleData.locateOrGenerate(
                        executablePath: CommandLine.arguments[0],
                        workingDirectory: FileManager.default.currentDirectoryPath,
                        environment: ProcessInfo.processInfo.environment)
                    (settings, logger) = try global.settings(embeddedDatabase: Self.demoDatabase)
                    plan = ExampleData.plan(examples: examples, outputDirectory: out ?? "out")
                } else {
                    (settings, logger) = try global.settings(configuration: configuration)
                    plan = RunPlan(outputDirectory: out ?? configuration.outputDirectory)
                    plan.catalogPath = catalog ?? configuration.catalogPath
                    plan.receiptPaths = receiptPaths.isEmpty ? configuration.receiptPaths : receiptPaths
                    plan.salesPaths = salesPaths.isEmpty ? configuration.salesPaths : salesPaths
                    plan.timeZone = configuration.timeZone
                    plan.detection = configuration.detection
                    plan.reportFormats = configuration.reportFormats
                    plan.reportWindow = configuration.reportWindow
                    if configuration.apple.isConfigured && !noFetch {
                        plan.fetch = try FetchPlan(
                            configuration.apple, environment: ProcessInfo.processInfo.environment)
                    }
                }
                plan.reports = reports.isEmpty ? configuration.reports : reports
                plan.isDryRun = dryRun
                settings.isRehash = rehash
                let workspace = try Workspace(settings: settings, logger: logger)
                workspace.onProgress = TerminalProgress.handler(
                    logFormat: global.logFormat ?? LogFormat(rawValue: configuration.logFormat) ?? .plain)
                summary = try workspace.run(plan, stop: stop)
                if let fetch = summary.fetch, let fetchPlan = plan.fetch {
                    FetchPrinter.print(fetch, spool: fetchPlan.spool)
                }
                if let catalog = summary.catalog {
                    print("catalog: \(catalog.apps) apps, \(catalog.products) products, \(catalog.retired) retired")
                }
                SummaryPrinter.print(summary.receipts)
                if let sales = summary.sales {
                    print("sales reports:")
                    SummaryPrinter.print(sales.ingest)
                }
                if let detection = summary.detection {
                    print(
                        "flags: \(detection.created) new, \(detection.updated) updated, "
                            + "\(detection.rules.reduce(0) { $0 + $1.hits }) hits over \(detection.rules.count) rules; "
                            + DetectCommand.scope(of: detection))
                    let triage = try workspace.flagStatusCounts()
                    print(
                        "triage: \(triage["open", default: 0]) open, \(triage["confirmed", default: 0]) confirmed, "
                            + "\(triage["dismissed", default: 0]) dismissed (iap-audit flags list)")
                }
                if let lines = summary.reconciliation?.linesByStatus, !lines.isEmpty {
                    print(
                        "reconciliation: "
                            + lines.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
                }
                if let reconciliation = summary.reconciliation {
                    print("reconciled: " + Self.reconciledDays(reconciliation))
                }
                print(
                    summary.isDryRun
                        ? "dry run: everything read and checked, nothing kept"
                        : "reports: \(summary.reportsWritten.count) files in \(plan.outputDirectory)/")
                if let index = summary.sitePages?.first {
                    print("start here: \(index)")
                }
                if demo && !summary.isDryRun {
                    // The other commands open iap_audit unless told otherwise: say how to reach the demo's data.
                    print(
                        "the demo's data is in the database \(Self.demoDatabase): add --database \(Self.demoDatabase) "
                            + "to other commands, or export IAP_AUDIT_DATABASE=\(Self.demoDatabase)")
                }
                print("seconds: " + Self.stageTimes(summary.stageSeconds))
                if let catalogError = summary.catalogError {
                    FileHandle.standardError.write(Data("iap-audit: catalog not imported: \(catalogError)\n".utf8))
                }
                return workspace.exitCode(of: summary)
            }
        } catch let error as ExitCode {
            exitCode = error.rawValue
            throw error
        }
    }
}

extension RunCommand {
    /// How many days the run's reconcile covered and why: `3 days that changed` or `240 days (all: time zone
    /// changed from UTC to America/Los_Angeles)`.
    static func reconciledDays(_ summary: ReconcileSummary) -> String {
        let days = "\(summary.daysReconciled) day\(summary.daysReconciled == 1 ? "" : "s")"
        switch summary.scope {
        case .changedDays: return days + " that changed"
        case .window: return days + " of the window asked for"
        case .all: return days + " (all: \(summary.allDaysReason ?? "asked for all days"))"
        }
    }

    /// Stage durations in pipeline order, e.g. "catalog 0.0, ingest receipts 12.3, …".
    static func stageTimes(_ seconds: [String: Double]) -> String {
        let order = RunSummary.stages
        func rank(_ stage: String) -> Int { order.firstIndex(of: stage) ?? order.count }
        return seconds.sorted { (rank($0.key), $0.key) < (rank($1.key), $1.key) }
            .map { "\($0.key) \(String(format: "%.1f", $0.value))" }.joined(separator: ", ")
    }
}
