/// What one `detect` run did: stored as the run's summary and printed at the end.
public struct DetectionSummary: Sendable, Codable, Equatable {
    /// One rule's outcome.
    public struct RuleOutcome: Sendable, Codable, Equatable {
        public var rule: String
        public var version: Int
        /// Subjects the rule fired on this time (new, changed or unchanged).
        public var hits: Int
        /// Flags created.
        public var created: Int
        /// Existing flags whose evidence, severity or window changed.
        public var updated: Int
        public var seconds: Double
    }

    /// Store-account clustering.
    public var storeAccounts = StoreAccountSummary()
    /// Seconds spent refreshing `account_purchase`.
    public var refreshSeconds = 0.0
    /// Per rule, in the order run.
    public var rules: [RuleOutcome] = []

    /// Flags created over all rules.
    public var created: Int { rules.reduce(0) { $0 + $1.created } }
    /// Flags updated over all rules.
    public var updated: Int { rules.reduce(0) { $0 + $1.updated } }

    /// An empty summary.
    public init() {}
}

/// What store-account clustering did in one run.
public struct StoreAccountSummary: Sendable, Codable, Equatable {
    /// The clusters were rebuilt from every receipt (asked for, first run, or a changed catalog).
    public var isRebuilt = false
    /// Receipt files folded in.
    public var filesRead = 0
    /// Transaction entries of those files that take part.
    public var entriesRead = 0
    /// Clusters written (new or changed).
    public var clustersWritten = 0
    /// Clusters renamed (merged into another, or given a smaller original transaction).
    public var renamed = 0
    public var seconds = 0.0

    /// An empty summary.
    public init() {}
}
