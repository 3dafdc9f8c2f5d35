internal import AppStoreSignatures

/// Recorded receipts into the database (`ingest receipts`, and `run`'s `[inputs] receipts` with what a fetch filled).
package struct ReceiptsStage: PipelineStage {
    /// Receipt files or directories.
    package var paths: [String]
    /// Root certificates trusted for this stage's signed data beside the settings' (the demo's test root).
    package var trustedRootPaths: [String] = []

    package init(paths: [String], trustedRootPaths: [String] = []) {
        self.paths = paths
        self.trustedRootPaths = trustedRootPaths
    }

    package var name: String { "ingest receipts" }
    package var summaryKey: String { "receipts" }
    /// A run without receipts still reports (and stores) its zero counts.
    package var skippedSummary: IngestSummary? { IngestSummary() }

    package func isNeeded(in session: StageSession) -> Bool { !allPaths(in: session).isEmpty }

    package func run(in session: StageSession) throws -> IngestSummary {
        let workspace = session.workspace
        var ingest = ReceiptIngest(
            connection: workspace.connection, hasher: workspace.settings.hasher,
            verifier: SignatureVerifier(trustStore: try workspace.settings.trustStore(adding: trustedRootPaths)),
            runID: session.runID, logger: workspace.logger)
        ingest.onProgress = workspace.onProgress
        ingest.settlingSeconds = workspace.settings.settlingSeconds
        ingest.isRehash = workspace.settings.isRehash
        ingest.queryDialect = try QueryDialect.of(workspace.connection)
        // A dry run's files roll back with its one transaction: they stay on its connection.
        if !session.isDryRun { ingest.openOverlapConnection = { try workspace.connectAgain() } }
        return try ingest.ingest(paths: allPaths(in: session), stop: session.stop)
    }

    package func outcome(of summary: IngestSummary, in session: StageSession) -> StageOutcome {
        .ingest(summary, isStrict: session.workspace.settings.isStrict)
    }

    package func summaryLines(_ summary: IngestSummary, context: SummaryContext) -> [String] { summary.lines() }

    private func allPaths(in session: StageSession) -> [String] { paths + session.addedInputs[.receipts, default: []] }
}
