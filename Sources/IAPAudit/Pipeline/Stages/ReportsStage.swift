/// The batch reports a run writes last, in each configured format (`[output]`). A dry run writes none.
package struct ReportsStage: PipelineStage {
    /// The run's plan: where, which reports, which formats, which window.
    package var plan: RunPlan

    package init(_ plan: RunPlan) { self.plan = plan }

    package var name: String { "reports" }
    package var summaryKey: String { "reportsWritten" }
    /// A dry run records that it wrote nothing.
    package var skippedSummary: [String]? { [] }

    package func isNeeded(in session: StageSession) -> Bool { !session.isDryRun }

    package func run(in session: StageSession) throws -> [String] {
        try session.workspace.writeReports(plan)
    }

    /// The run's closing lines say where the reports are (`RunSummary.closingLines`).
    package func summaryLines(_ written: [String], context: SummaryContext) -> [String] { [] }
}
