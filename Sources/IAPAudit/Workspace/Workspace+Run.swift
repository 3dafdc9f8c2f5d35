internal import Foundation
internal import Logging
internal import Postgres

extension Workspace {
    /// Advisory-lock key that makes `run` exclusive across processes ("IAPRUN" in ASCII).
    public static let runLockKey: Int64 = 0x4941_5052_554E

    /// `iap-audit run`: catalog → ingest receipts → ingest sales → detect → reconcile → reports, under the lock,
    /// recorded as one run.
    ///
    /// A `stop` request (SIGINT/SIGTERM) is honoured between files: the file in progress is finished, the run is
    /// recorded as interrupted. A dry run does all of it inside one transaction that is rolled back.
    public func run(_ plan: RunPlan, stop: StopRequest = StopRequest()) throws -> RunSummary {
        guard try connection.tryAdvisoryLock(Self.runLockKey) else {
            throw IAPAuditError.locked(holder: try connection.advisoryLockHolder(Self.runLockKey))
        }
        defer { try? connection.advisoryUnlock(Self.runLockKey) }
        guard plan.isDryRun else { return try runStages(plan, stop: stop) }
        var summary = try connection.rollingBack { try runStages(plan, stop: stop) }
        summary.isDryRun = true
        return summary
    }

    private func runStages(_ plan: RunPlan, stop: StopRequest) throws -> RunSummary {
        try recordingRun(
            "run", settings: ["output_directory": plan.outputDirectory],
            outcome: { summary in
                settings.isStrict && summary.quarantined > 0 ? (.rejected, 65) : (.succeeded, 0)
            }
        ) { run in
            var summary = RunSummary()
            if let catalogPath = plan.catalogPath {
                summary.catalog = try timed("catalog", into: &summary) {
                    try importCatalog(path: catalogPath, bundleID: nil)
                }
            }
            if !plan.receiptPaths.isEmpty {
                summary.receipts = try timed("ingest receipts", into: &summary) {
                    var ingest = ReceiptIngest(
                        connection: connection, hasher: settings.hasher, runID: run.id, logger: logger)
                    ingest.onProgress = onProgress
                    return try ingest.ingest(paths: plan.receiptPaths, stop: stop)
                }
            }
            if !plan.salesPaths.isEmpty {
                summary.sales = try timed("ingest sales", into: &summary) {
                    try SalesIngest(connection: connection, runID: run.id, logger: logger).ingest(
                        paths: plan.salesPaths)
                }
            }
            try stop.check()
            summary.detection = try timed("detect", into: &summary) {
                try Detector(connection: connection, logger: logger)
                    .run(
                        rules: DetectionRule.allCases, settings: plan.detection, runID: run.id,
                        rebuildStoreAccounts: false)
            }
            try stop.check()
            // Reconcile whenever reports are stored: new receipts can settle lines of earlier days too.
            if try connection.query("SELECT EXISTS (SELECT 1 FROM sales_report_period)").requireBool(0, 0) {
                summary.reconciliation = try timed("reconcile", into: &summary) {
                    try Reconciler(connection: connection, runID: run.id, logger: logger)
                        .reconcile(ReconcileOptions(timeZone: plan.timeZone))
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
        for definition in definitions.sorted(by: { $0.name < $1.name }) {
            // Reports that need a parameter (e.g. one account) are for people asking a question, not for the batch.
            guard definition.parameters.allSatisfy({ !$0.isRequired }) else { continue }
            let table = try runner.run(definition, parameters: [:])
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
