/// Apple's sales and financial reports: the `ingest sales` entry point, and the stage `run` calls.
extension Workspace {
    /// `ingest sales PATH…`, exclusive of other runs and recorded as one; a stop request is honoured between files.
    package func ingestSales(paths: [String], stop: StopRequest = StopRequest()) throws -> SalesIngestSummary {
        try exclusively {
            try recordingRun("ingest sales", outcome: { outcome(of: $0.ingest) }) { run in
                try ingestSalesStage(paths: paths, runID: run.id, stop: stop)
            }
        }
    }

    func ingestSalesStage(paths: [String], runID: Int64, stop: StopRequest) throws -> SalesIngestSummary {
        var ingest = SalesIngest(connection: connection, runID: runID, logger: logger)
        ingest.settlingSeconds = settings.settlingSeconds
        ingest.isRehash = settings.isRehash
        return try ingest.ingest(paths: paths, stop: stop)
    }
}
