/// Apple's sales and financial reports into the database (`ingest sales`, and `run`'s `[inputs] sales` with the
/// reports a fetch filled).
package struct SalesStage: PipelineStage {
    /// Report files or directories.
    package var paths: [String]

    package init(paths: [String]) { self.paths = paths }

    package var name: String { "ingest sales" }
    package var summaryKey: String { "sales" }

    package func isNeeded(in session: StageSession) -> Bool { !allPaths(in: session).isEmpty }

    package func run(in session: StageSession) throws -> SalesIngestSummary {
        let workspace = session.workspace
        var ingest = SalesIngest(connection: workspace.connection, runID: session.runID, logger: workspace.logger)
        ingest.settlingSeconds = workspace.settings.settlingSeconds
        ingest.isRehash = workspace.settings.isRehash
        return try ingest.ingest(paths: allPaths(in: session), stop: session.stop)
    }

    package func outcome(of summary: SalesIngestSummary, in session: StageSession) -> StageOutcome {
        .ingest(summary.ingest, isStrict: session.workspace.settings.isStrict)
    }

    package func summaryLines(_ summary: SalesIngestSummary, context: SummaryContext) -> [String] {
        switch context {
        case .inRun:
            return ["sales reports:"] + summary.ingest.lines()
        case .alone:
            return summary.ingest.lines(records: "rows")
                + summary.findingsByCode.sorted { $0.key < $1.key }.map { "  finding \($0.key): \($0.value)" }
        }
    }

    private func allPaths(in session: StageSession) -> [String] { paths + session.addedInputs[.sales, default: []] }
}
