/// What one `reconcile` did: the window it covered and the lines it wrote.
public struct ReconcileSummary: Sendable, Codable, Equatable {
    /// The first day reconciled (`YYYY-MM-DD`), or nil when there was nothing to reconcile.
    public var from: String?
    /// The last day reconciled.
    public var to: String?
    /// The zone purchase times were placed in.
    public var timeZone: String
    /// Report periods reconciled, by frequency (`daily`, `weekly`, …, `fiscal`).
    public var periodsByFrequency: [String: Int] = [:]
    /// Days of the window that no sales report covers, so were not reconciled.
    public var daysWithoutSalesReport = 0
    /// Lines written, by status.
    public var linesByStatus: [String: Int] = [:]
    /// Units on our side, over all lines.
    public var recordedUnits = 0
    /// Units on Apple's side, over all lines.
    public var reportedUnits = 0

    /// Lines written.
    public var lines: Int { linesByStatus.values.reduce(0, +) }

    /// An empty summary for a zone.
    public init(timeZone: String) {
        self.timeZone = timeZone
    }
}
