internal import Logging

/// The month-end pack of the latest closed fiscal month (`MonthEndPack`): the bridge, its table per region and the
/// pages of the rows behind each figure. A stage of its own so that its cost shows in the run's stage times
/// (`bench/run`). Skipped by a dry run, and when `[output] reports` names none of its reports.
package struct MonthEndStage: PipelineStage {
    /// The run's plan: where, which reports, which formats.
    package var plan: RunPlan

    package init(_ plan: RunPlan) { self.plan = plan }

    package var name: String { "month-end" }
    package var summaryKey: String { "monthEndWritten" }

    package func isNeeded(in session: StageSession) -> Bool {
        !session.isDryRun && (plan.reports.isEmpty || plan.reports.contains { MonthEndPack.reports.contains($0) })
    }

    package func run(in session: StageSession) throws -> [String] {
        var pack = MonthEndPack(
            connection: session.workspace.connection, directory: plan.outputDirectory, formats: plan.reportFormats)
        // The site written after the run has the index every page leads back to.
        pack.navigation = [.init(text: "Run summary", href: "index.html")]
        let written = try pack.write()
        session.workspace.logger.info(
            "wrote the month-end pack",
            metadata: ["reports": "\(written.reports.count)", "pages of rows": "\(written.pages.count)"])
        return written.reports
    }

    /// The run's closing lines say where the reports are (`RunSummary.closingLines`).
    package func summaryLines(_ written: [String], context: SummaryContext) -> [String] { [] }
}
