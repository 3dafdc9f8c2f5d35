/// Shorthands for one stage run alone (`runAlone`), for callers that want its summary only: each is exclusive of
/// other runs and recorded as one; a stop request is honoured between files.
extension Workspace {
    /// `ingest receipts PATH…`.
    package func ingestReceipts(paths: [String], stop: StopRequest = StopRequest()) throws -> IngestSummary {
        try runAlone(ReceiptsStage(paths: paths), stop: stop).summary
    }

    /// `ingest sales PATH…`.
    package func ingestSales(paths: [String], stop: StopRequest = StopRequest()) throws -> SalesIngestSummary {
        try runAlone(SalesStage(paths: paths), stop: stop).summary
    }

    /// `detect`: updates the store-account clusters and runs `rules` with `settings`, writing flags.
    package func detect(
        rules: [DetectionRule] = DetectionRule.allCases, settings detection: DetectionSettings = DetectionSettings(),
        rebuildStoreAccounts: Bool = false, full: Bool = false, stop: StopRequest = StopRequest()
    ) throws -> DetectionSummary {
        let stage = DetectStage(
            rules: rules, settings: detection, rebuildStoreAccounts: rebuildStoreAccounts, full: full)
        return try runAlone(stage, stop: stop).summary
    }

    /// `reconcile [--from DATE] [--to DATE] [--time-zone ZONE]`.
    package func reconcile(_ options: ReconcileOptions) throws -> ReconcileSummary {
        try runAlone(ReconcileStage(options)).summary
    }
}
