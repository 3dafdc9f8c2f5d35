/// What one `detect` run did: stored as the run's summary and printed at the end.
package struct DetectionSummary: Sendable, Codable, Equatable {
    /// One rule's outcome.
    package struct RuleOutcome: Sendable, Codable, Equatable {
        package var rule: String
        package var version: Int
        /// Subjects the rule fired on this time (new, changed or unchanged).
        package var hits: Int
        /// Flags created.
        package var created: Int
        /// Existing flags whose evidence, severity or window changed.
        package var updated: Int
        package var seconds: Double
    }

    /// Store-account clustering.
    package var storeAccounts = StoreAccountSummary()
    /// Why this run evaluated every subject (and rebuilt `receipt_summary` and `account_purchase`, unless only some
    /// rules ran); nil when it evaluated only the subjects whose data changed.
    package var fullReason: String?
    /// Subjects whose data changed since every rule last ran (`detect_pending`); a full run evaluates all anyway.
    package var subjectsQueued = 0
    /// Seconds spent bringing `receipt_summary` and `account_purchase` up to date.
    package var refreshSeconds = 0.0
    /// Per rule, in the order run.
    package var rules: [RuleOutcome] = []
    /// Flags by triage status after the rules ran (open, confirmed, dismissed): `run`'s triage line.
    package var triage: [String: Int]?

    /// True when every subject was evaluated.
    package var isFull: Bool { fullReason != nil }
    /// Flags created over all rules.
    package var created: Int { rules.reduce(0) { $0 + $1.created } }
    /// Flags updated over all rules.
    package var updated: Int { rules.reduce(0) { $0 + $1.updated } }

    /// An empty summary.
    package init() {}
}

/// What store-account clustering did in one run.
package struct StoreAccountSummary: Sendable, Codable, Equatable {
    /// The clusters were rebuilt from every receipt (asked for, first run, or a changed catalog).
    package var isRebuilt = false
    /// Receipt files folded in.
    package var filesRead = 0
    /// Transaction entries of those files that take part.
    package var entriesRead = 0
    /// Clusters written (new or changed).
    package var clustersWritten = 0
    /// Clusters renamed (merged into another, or given a smaller original transaction).
    package var renamed = 0
    package var seconds = 0.0

    /// An empty summary.
    package init() {}
}
