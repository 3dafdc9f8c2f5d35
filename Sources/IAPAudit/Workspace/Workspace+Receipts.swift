internal import AppStoreSignatures

/// Recorded receipts: the `ingest receipts` entry point, and the stage `run` calls.
extension Workspace {
    /// `ingest receipts PATH…`, exclusive of other runs and recorded as one; a stop request is honoured between files.
    package func ingestReceipts(paths: [String], stop: StopRequest = StopRequest()) throws -> IngestSummary {
        try exclusively {
            try recordingRun("ingest receipts", outcome: outcome(of:)) { run in
                try ingestReceiptsStage(paths: paths, runID: run.id, stop: stop)
            }
        }
    }

    func ingestReceiptsStage(
        paths: [String], runID: Int64, stop: StopRequest, trustedRootPaths: [String] = []
    ) throws -> IngestSummary {
        var ingest = ReceiptIngest(
            connection: connection, hasher: settings.hasher,
            verifier: SignatureVerifier(trustStore: try settings.trustStore(adding: trustedRootPaths)),
            runID: runID, logger: logger)
        ingest.onProgress = onProgress
        ingest.settlingSeconds = settings.settlingSeconds
        ingest.isRehash = settings.isRehash
        ingest.queryDialect = try QueryDialect.of(connection)
        return try ingest.ingest(paths: paths, stop: stop)
    }
}
