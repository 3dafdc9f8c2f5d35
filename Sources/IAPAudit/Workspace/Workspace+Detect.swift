internal import Foundation
internal import Postgres

/// Fraud detection: the `detect` entry point, and the stage `run` calls.
extension Workspace {
    /// `iap-audit detect`: updates the store-account clusters and runs `rules` (all by default) with `settings`,
    /// writing flags; recorded as a run with the settings it used. `full` evaluates every subject, not only those
    /// whose data changed since the last run (the result is the same; an audit may want to see it so).
    package func detect(
        rules: [DetectionRule] = DetectionRule.allCases, settings detection: DetectionSettings = DetectionSettings(),
        rebuildStoreAccounts: Bool = false, full: Bool = false, stop: StopRequest = StopRequest()
    ) throws -> DetectionSummary {
        try exclusively {
            try recordingRun(
                "detect", settings: ["rules": rules.map(\.id).joined(separator: ",")],
                outcome: { _ in (.succeeded, 0) }
            ) { run in
                try detectStage(
                    rules: rules, settings: detection, rebuildStoreAccounts: rebuildStoreAccounts, full: full,
                    runID: run.id, stop: stop)
            }
        }
    }

    func detectStage(
        rules: [DetectionRule], settings detection: DetectionSettings, rebuildStoreAccounts: Bool, full: Bool = false,
        runID: Int64, stop: StopRequest = StopRequest()
    ) throws -> DetectionSummary {
        // The run row gets the full settings as JSON, not flattened strings: an analyst can diff two runs.
        let recorded = """
            {"rules": \(try Self.jsonArray(rules.map(\.id))), "rebuild_store_accounts": \(rebuildStoreAccounts), \
            "full": \(full), "detection": \(try detection.jsonText())}
            """
        try connection.query(
            "UPDATE pipeline_run SET settings = settings || $2::jsonb WHERE id = $1", [runID, recorded],
            context: "record detect settings")
        return try Detector(connection: connection, logger: logger)
            .run(
                rules: rules, settings: detection, runID: runID, rebuildStoreAccounts: rebuildStoreAccounts, full: full,
                stop: stop)
    }

    private static func jsonArray(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }
}
