/// What one `iap-audit run` does: each stage with no input is skipped.
package struct RunPlan: Sendable {
    /// A JSON catalog to import first, if any.
    package var catalogPath: String?
    /// Receipt files or directories.
    package var receiptPaths: [String] = []
    /// Sales and financial report files or directories.
    package var salesPaths: [String] = []
    /// Root certificates trusted for this run's signed data beside the settings' (the demo trusts the root its
    /// examples were signed with).
    package var trustedRootPaths: [String] = []
    /// Fraud rule thresholds and windows.
    package var detection = DetectionSettings()
    /// The zone of the reports' days, for reconciliation.
    package var timeZone = ReconcileOptions.defaultTimeZone
    /// Where reports are written.
    package var outputDirectory: String
    /// Reports to write, by name; every shipped report when empty.
    package var reports: [String] = []
    /// Formats each report is written in.
    package var reportFormats: [ReportFormat] = [.csv, .html]
    /// The batch reports cover the last this many days of history (each by its own date); 0 is all history.
    package var reportWindow = RunPlan.defaultReportWindow
    /// Five weeks: a month's reports and the days either side, whatever the history's size.
    package static let defaultReportWindow = 35
    /// Read and validate everything, keep nothing: the whole run is rolled back and no report is written.
    package var isDryRun = false
    /// Fetch from Apple first (an `[apple.*]` section is configured and `--no-fetch` was not given).
    package var fetch: FetchPlan?
    /// `run --demo` only: the analyst decisions the demo makes after detect (`DemoDecision.demo`); empty otherwise.
    package var demoDecisions: [DemoDecision] = []

    /// A plan writing reports to `outputDirectory`.
    package init(outputDirectory: String) {
        self.outputDirectory = outputDirectory
    }
}

extension RunPlan {
    /// The stages of a run, in order; each one with nothing to do skips itself. A new stage is one line here.
    package var stages: [any PipelineStage] {
        [
            FetchStage(fetch),
            CatalogStage(path: catalogPath),
            ReceiptsStage(paths: receiptPaths, trustedRootPaths: trustedRootPaths),
            SalesStage(paths: salesPaths),
            DetectStage(settings: detection),
            DemoDecisionsStage(demoDecisions),
            ReconcileStage(ReconcileOptions(timeZone: timeZone, isIncremental: true), onlyWhenReportsStored: true),
            MonthEndStage(self),
            ReportsStage(self),
        ]
    }
}

extension ResolvedSettings {
    /// The plan of `run`: the demo's when `examples` names its data (reports into `./out` unless `--out` says
    /// otherwise), else the configuration's, fetching first when an `[apple.*]` section is configured and `fetch`.
    package func runPlan(examples: String?, fetch: Bool, isDryRun: Bool) throws -> RunPlan {
        var plan: RunPlan
        if let examples {
            let flagged = configuration.sources["output.directory"] == .flag
            plan = ExampleData.plan(
                examples: examples, outputDirectory: flagged ? configuration.outputDirectory : "out")
        } else {
            plan = RunPlan(outputDirectory: configuration.outputDirectory)
            plan.catalogPath = configuration.catalogPath
            plan.receiptPaths = configuration.receiptPaths
            plan.salesPaths = configuration.salesPaths
            plan.timeZone = configuration.timeZone
            plan.detection = configuration.detection
            plan.reportFormats = configuration.reportFormats
            plan.reportWindow = configuration.reportWindow
            if configuration.apple.isConfigured && fetch {
                plan.fetch = try FetchPlan(configuration.apple, environment: settings.environment)
            }
        }
        plan.reports = configuration.reports
        plan.isDryRun = isDryRun
        return plan
    }
}
