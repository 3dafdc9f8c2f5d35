internal import Foundation
internal import Logging
internal import Postgres

extension Workspace {
    /// `iap-audit run`: the plan's stages (`RunPlan.stages`: fetch → catalog → ingest receipts → ingest sales →
    /// detect → reconcile → reports) under the lock, recorded as one run; then the report site.
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
                let run = try runStages(plan, stop: stop)
                var summary = run.summary
                // After the run's record is finished, so the index shows it whole (outcome, every stage's time).
                // Timed for the printed summary only: the stored record was finished before the site was written.
                let siteTime = Stopwatch()
                summary.sitePages = try writeSite(
                    to: plan.outputDirectory, runID: run.runID, reportFiles: summary.reportsWritten,
                    window: plan.reportWindow)
                summary.stageSeconds["site"] = siteTime.seconds
                return summary
            }
            var summary = try connection.rollingBack { try runStages(plan, stop: stop).summary }
            summary.isDryRun = true
            return summary
        }
    }

    /// The plan's stages in order, recorded as one run.
    private func runStages(_ plan: RunPlan, stop: StopRequest) throws -> Recorded<RunSummary> {
        try recordingRun(
            "run", settings: ["output_directory": plan.outputDirectory], stop: stop, isDryRun: plan.isDryRun
        ) { session in
            var summary = RunSummary()
            for stage in plan.stages { try run(stage, in: session, into: &summary) }
            return (summary, summary.outcome)
        }
    }

    /// One stage of a run: skipped when it has nothing to do, else timed and its summary added.
    private func run<Stage: PipelineStage>(
        _ stage: Stage, in session: StageSession, into summary: inout RunSummary
    ) throws {
        guard try stage.isNeeded(in: session) else {
            if let skipped = stage.skippedSummary { summary.add(stage, skipped, outcome: .succeeded) }
            return
        }
        // A stop request is honoured between stages too (and between files inside the ingests).
        try session.stop.check()
        let stopwatch = Stopwatch()
        let result = try stage.run(in: session)
        summary.stageSeconds[stage.name] = stopwatch.seconds
        summary.add(stage, result, outcome: stage.outcome(of: result, in: session))
    }

    /// Writes the plan's reports in each of its formats; returns the paths written.
    func writeReports(_ plan: RunPlan) throws -> [String] {
        let runner = ReportRunner(connection: connection)
        // The month-end pack is a stage of its own (MonthEndStage): one page of three reports.
        let definitions = try ReportRunner.definitions().filter {
            (plan.reports.isEmpty || plan.reports.contains($0.name)) && !MonthEndPack.reports.contains($0.name)
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
}
