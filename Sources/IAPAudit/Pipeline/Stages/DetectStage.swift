internal import Foundation
internal import Postgres

/// The fraud rules over what is stored (`detect`, and `run` after the ingests): store-account clusters updated, then
/// each rule writes its flags.
package struct DetectStage: PipelineStage {
    package var rules: [DetectionRule] = DetectionRule.allCases
    package var settings = DetectionSettings()
    /// Rebuild the store-account clusters from every receipt instead of extending them.
    package var rebuildStoreAccounts = false
    /// Evaluate every subject, not only those whose data changed since the last run.
    package var full = false

    package init(
        rules: [DetectionRule] = DetectionRule.allCases, settings: DetectionSettings = DetectionSettings(),
        rebuildStoreAccounts: Bool = false, full: Bool = false
    ) {
        self.rules = rules
        self.settings = settings
        self.rebuildStoreAccounts = rebuildStoreAccounts
        self.full = full
    }

    package var name: String { "detect" }
    package var summaryKey: String { "detection" }
    package var recordedSettings: [String: String] { ["rules": rules.map(\.id).joined(separator: ",")] }

    package func run(in session: StageSession) throws -> DetectionSummary {
        let workspace = session.workspace
        // The run row gets the full settings as JSON, not flattened strings: an analyst can diff two runs.
        let recorded = """
            {"rules": \(try Self.jsonArray(rules.map(\.id))), "rebuild_store_accounts": \(rebuildStoreAccounts), \
            "full": \(full), "detection": \(try settings.jsonText())}
            """
        try workspace.connection.query(
            "UPDATE pipeline_run SET settings = settings || $2::jsonb WHERE id = $1", [session.runID, recorded],
            context: "record detect settings")
        var summary = try Detector(connection: workspace.connection, logger: workspace.logger)
            .run(
                rules: rules, settings: settings, runID: session.runID, rebuildStoreAccounts: rebuildStoreAccounts,
                full: full, stop: session.stop)
        summary.triage = try workspace.flagStatusCounts()
        return summary
    }

    package func summaryLines(_ summary: DetectionSummary, context: SummaryContext) -> [String] {
        guard context == .alone else {
            return [
                "flags: \(summary.created) new, \(summary.updated) updated, "
                    + "\(summary.rules.reduce(0) { $0 + $1.hits }) hits over \(summary.rules.count) rules; "
                    + Self.scope(of: summary)
            ] + Self.triageLine(summary)
        }
        let clusters = summary.storeAccounts
        return [
            "store accounts: \(clusters.filesRead) files folded in, \(clusters.clustersWritten) clusters written, "
                + "\(clusters.renamed) renamed" + (clusters.isRebuilt ? " (rebuilt)" : ""),
            Self.scope(of: summary),
        ]
            + summary.rules.map { rule in
                "\(rule.rule) v\(rule.version): \(rule.hits) hits, \(rule.created) new, \(rule.updated) updated "
                    + "(\(String(format: "%.2f", rule.seconds)) s)"
            } + ["flags: \(summary.created) new, \(summary.updated) updated"]
    }

    /// The open queue an analyst works through after the run (docs/triage.md).
    static func triageLine(_ summary: DetectionSummary) -> [String] {
        guard let triage = summary.triage else { return [] }
        return [
            "triage: \(triage["open", default: 0]) open, \(triage["confirmed", default: 0]) confirmed, "
                + "\(triage["dismissed", default: 0]) dismissed (iap-audit flags list)"
        ]
    }

    /// Which subjects the rules evaluated, and why all of them when they did.
    static func scope(of summary: DetectionSummary) -> String {
        if let reason = summary.fullReason { return "subjects: all (full run: \(reason))" }
        return "subjects: \(summary.subjectsQueued) whose data changed (incremental run)"
    }

    private static func jsonArray(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }
}
