/// What one `ingest sales` did: the counts every ingest has, plus the findings recorded about files as a whole.
package struct SalesIngestSummary: Sendable, Codable, Equatable {
    /// Files, rows read, stored and quarantined (`transactionEntries` stays 0).
    package var ingest = IngestSummary()
    /// Findings recorded in `sales_report_finding`, by code (`header-only`, `total-rows-mismatch`, …).
    package var findingsByCode: [String: Int] = [:]

    /// An empty summary.
    package init() {}

    mutating func add(_ other: SalesIngestSummary) {
        ingest.add(other.ingest)
        findingsByCode.merge(other.findingsByCode, uniquingKeysWith: +)
    }
}
