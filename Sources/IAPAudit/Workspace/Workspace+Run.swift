internal import Foundation
internal import Logging
internal import Postgres

extension Workspace {
    /// `iap-audit run`: catalog → ingest receipts → ingest sales → detect → reconcile → reports, under the lock,
    /// recorded as one run.
    ///
    /// A `stop` request (SIGINT/SIGTERM) is honoured between files: the file in progress is finished, the run is
    /// recorded as interrupted. A dry run does all of it inside one transaction that is rolled back.
    package func run(_ plan: RunPlan, stop: StopRequest = StopRequest()) throws -> RunSummary {
        // Before any work: a directory that cannot take the reports would otherwise fail the run at its end.
        if !plan.isDryRun { try OutputDirectory.prepare(plan.outputDirectory) }
        let stopwatch = Stopwatch()
        defer { logger.info("run finished", metadata: ["seconds": "\(stopwatch.formattedSeconds)"]) }
        return try exclusively {
            guard plan.isDryRun else {
                var runID: Int64?
                var summary = try runStages(plan, stop: stop) { runID = $0 }
                // After the run's record is finished, so the index shows it whole (outcome, every stage's time).
                if let runID {
                    // Timed for the printed summary only: the stored record was finished before the site was written.
                    let reportFiles = summary.reportsWritten
                    summary.sitePages = try timed("site", into: &summary) {
                        try writeSite(
                            to: plan.outputDirectory, runID: runID, reportFiles: reportFiles, window: plan.reportWindow)
                    }
                }
                return summary
            }
            var summary = try connection.rollingBack { try runStages(plan, stop: stop) { _ in } }
            summary.isDryRun = true
            return summary
        }
    }

    private func runStages(
        _ plan: RunPlan, stop: StopRequest, recordedAs: (Int64) -> Void
    ) throws -> RunSummary {
        try recordingRun(
            "run", settings: ["output_directory": plan.outputDirectory],
            outcome: { summary in outcome(of: summary) }
        ) { run in
            recordedAs(run.id)
            var summary = RunSummary()
            // First, so the run audits what Apple has; a fetch that fails leaves the rest of the run to do its work.
            var salesPaths = plan.salesPaths
            var receiptPaths = plan.receiptPaths
            if var fetch = plan.fetch {
                fetch.isDryRun = fetch.isDryRun || plan.isDryRun
                summary.fetch = try timed("fetch", into: &summary) { try fetchStage(fetch, runID: run.id, stop: stop) }
                if fetch.reports != nil, FileManager.default.fileExists(atPath: fetch.reportsFolder) {
                    salesPaths.append(fetch.reportsFolder)
                }
                // History fetched by `fetch history` is archived beside the notifications and audited with them.
                for folder in [fetch.notificationsFolder, fetch.historyFolder]
                where fetch.server != nil && FileManager.default.fileExists(atPath: folder) {
                    receiptPaths.append(folder)
                }
            }
            if let catalogPath = plan.catalogPath {
                // A catalog that cannot be read keeps the one in force; the rest of the batch still runs.
                do {
                    summary.catalog = try timed("catalog", into: &summary) {
                        try importCatalog(path: catalogPath, bundleID: nil)
                    }
                } catch IAPAuditError.input(let message) {
                    summary.catalogError = message
                    logger.error("catalog not imported; the one in force stays", metadata: ["error": "\(message)"])
                }
            }
            if !receiptPaths.isEmpty {
                summary.receipts = try timed("ingest receipts", into: &summary) {
                    try ingestReceiptsStage(
                        paths: receiptPaths, runID: run.id, stop: stop, trustedRootPaths: plan.trustedRootPaths)
                }
            }
            if !salesPaths.isEmpty {
                summary.sales = try timed("ingest sales", into: &summary) {
                    try ingestSalesStage(paths: salesPaths, runID: run.id, stop: stop)
                }
            }
            try stop.check()
            summary.detection = try timed("detect", into: &summary) {
                try detectStage(
                    rules: DetectionRule.allCases, settings: plan.detection, rebuildStoreAccounts: false,
                    runID: run.id, stop: stop)
            }
            try stop.check()
            // Reconcile whenever reports are stored: new receipts can settle lines of earlier days too. Only the days
            // that changed since the last reconcile (all days the first time, or after the zone or catalog changed).
            if try connection.query("SELECT EXISTS (SELECT 1 FROM sales_report_period)").requireBool(0, 0) {
                summary.reconciliation = try timed("reconcile", into: &summary) {
                    try reconcileStage(ReconcileOptions(timeZone: plan.timeZone, isIncremental: true), runID: run.id)
                }
            }
            if !plan.isDryRun {
                summary.reportsWritten = try timed("reports", into: &summary) { try writeReports(plan) }
            }
            return summary
        }
    }

    /// Writes the plan's reports in each of its formats; returns the paths written.
    func writeReports(_ plan: RunPlan) throws -> [String] {
        let runner = ReportRunner(connection: connection)
        let definitions = try ReportRunner.definitions().filter {
            plan.reports.isEmpty || plan.reports.contains($0.name)
        }
        var written: [String] = []
        // The site written after the reports has a page for some store accounts, transactions and receipts: the
        // HTML reports link their cells to them.
        var pages: SubjectPages?
        if plan.reportFormats.contains(.html) {
            var site = ReportSite(connection: connection, directory: plan.outputDirectory)
            site.window = plan.reportWindow
            pages = try connection.plannedForFewRows { try site.subjectPages().pages }
        }
        for definition in definitions.sorted(by: { $0.name < $1.name }) {
            // Reports that need a parameter (e.g. one account) are for people asking a question, not for the batch.
            guard definition.parameters.allSatisfy({ !$0.isRequired }) else { continue }
            // A report that lists history covers the plan's window (its header says by which date); the title says
            // so, so a reader knows the file is not all history.
            let isWindowed = plan.reportWindow > 0 && definition.parameters.contains { $0.name == "window" }
            // A window's rows are few; all history is where JIT compiling and hashing whole tables pay for themselves.
            var table =
                try isWindowed
                ? connection.plannedForFewRows {
                    try runner.run(definition, parameters: ["window": "\(plan.reportWindow)"])
                }
                : runner.run(definition, parameters: [:])
            if isWindowed {
                table.title += " (last \(plan.reportWindow) days)"
            }
            // The site written beside the reports has the index every page leads back to.
            table.navigation = [ReportTable.Link(text: "Run summary", href: "index.html")]
            if let pages { table.cellLinks = ReportSite.cellLinks(table, pages: pages) }
            for format in plan.reportFormats {
                written.append(try ReportRunner.write(table, of: definition, as: format, to: plan.outputDirectory))
            }
        }
        logger.info("wrote reports", metadata: ["directory": "\(plan.outputDirectory)", "files": "\(written.count)"])
        return written
    }

    private func timed<T>(_ stage: String, into summary: inout RunSummary, _ body: () throws -> T) rethrows -> T {
        let stopwatch = Stopwatch()
        defer { summary.stageSeconds[stage] = stopwatch.seconds }
        return try body()
    }
}
