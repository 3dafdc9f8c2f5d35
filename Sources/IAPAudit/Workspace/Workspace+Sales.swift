internal import AppStoreFormats

/// Sales reports and reconciliation: the `ingest sales` and `reconcile` entry points.
extension Workspace {
    /// `ingest sales PATH…`.
    public func ingestSales(paths: [String]) throws -> SalesIngestSummary {
        try recordingRun("ingest sales", outcome: { outcome(of: $0.ingest) }) { run in
            try SalesIngest(connection: connection, runID: run.id, logger: logger).ingest(paths: paths)
        }
    }

    /// `reconcile [--from DATE] [--to DATE] [--time-zone ZONE]`; the run row records the settings.
    public func reconcile(_ options: ReconcileOptions) throws -> ReconcileSummary {
        let runSettings = [
            "from": options.from?.description ?? "(first report day)",
            "to": options.to?.description ?? "(last report day)",
            "time_zone": options.timeZone,
        ]
        return try recordingRun("reconcile", settings: runSettings, outcome: { _ in (.succeeded, 0) }) { run in
            try Reconciler(connection: connection, runID: run.id, logger: logger).reconcile(options)
        }
    }
}
