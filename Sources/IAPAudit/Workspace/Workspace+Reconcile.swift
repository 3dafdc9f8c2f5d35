internal import AppStoreFormats

/// Reconciliation: the `reconcile` entry point, and the stage `run` calls.
extension Workspace {
    /// `reconcile [--from DATE] [--to DATE] [--time-zone ZONE]`, exclusive of other runs (two at once would write
    /// the same lines); the run row records the settings.
    package func reconcile(_ options: ReconcileOptions) throws -> ReconcileSummary {
        let runSettings = [
            "from": options.from?.description ?? "(first report day)",
            "to": options.to?.description ?? "(last report day)",
            "time_zone": options.timeZone,
        ]
        return try exclusively {
            try recordingRun("reconcile", settings: runSettings, outcome: { _ in (.succeeded, 0) }) { run in
                try reconcileStage(options, runID: run.id)
            }
        }
    }

    func reconcileStage(_ options: ReconcileOptions, runID: Int64) throws -> ReconcileSummary {
        try Reconciler(connection: connection, runID: runID, logger: logger).reconcile(options)
    }
}
