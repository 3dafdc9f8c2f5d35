/// What one `ingest sales` did: the counts every ingest has, plus the findings recorded about files as a whole.
public struct SalesIngestSummary: Sendable, Codable, Equatable {
    /// Files, rows read, stored and quarantined (`transactionEntries` stays 0).
    public var ingest = IngestSummary()
    /// Findings recorded in `sales_report_finding`, by code (`header-only`, `total-rows-mismatch`, …).
    public var findingsByCode: [String: Int] = [:]

    /// An empty summary.
    public init() {}

    mutating func add(_ other: SalesIngestSummary) {
        ingest.add(other.ingest)
        findingsByCode.merge(other.findingsByCode, uniquingKeysWith: +)
    }
}
