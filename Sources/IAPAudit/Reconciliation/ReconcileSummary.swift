/// What one `reconcile` did: the window it covered and the lines it wrote.
package struct ReconcileSummary: Sendable, Codable, Equatable {
    /// The first day reconciled (`YYYY-MM-DD`), or nil when there was nothing to reconcile.
    package var from: String?
    /// The last day reconciled.
    package var to: String?
    /// The zone purchase times were placed in.
    package var timeZone: String
    /// Report periods reconciled, by frequency (`daily`, `weekly`, …, `fiscal`).
    package var periodsByFrequency: [String: Int] = [:]
    /// Days of the window that no sales report covers, so were not reconciled.
    package var daysWithoutSalesReport = 0
    /// Lines written, by status.
    package var linesByStatus: [String: Int] = [:]
    /// Units on our side, over all lines.
    package var recordedUnits = 0
    /// Units on Apple's side, over all lines.
    package var reportedUnits = 0

    /// Lines written.
    package var lines: Int { linesByStatus.values.reduce(0, +) }

    /// An empty summary for a zone.
    package init(timeZone: String) {
        self.timeZone = timeZone
    }
}
