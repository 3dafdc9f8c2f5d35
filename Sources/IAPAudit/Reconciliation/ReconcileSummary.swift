/// What one `reconcile` did: the window it covered and the lines it wrote.
package struct ReconcileSummary: Sendable, Codable, Equatable {
    /// Which days a reconcile covered.
    package enum Scope: String, Sendable, Codable, Equatable {
        /// Every day any stored report covers.
        case all
        /// The days that changed since the last reconcile, each with every report period that contains it.
        case changedDays = "changed-days"
        /// The window `--from`/`--to` named.
        case window
    }

    /// Which days were covered.
    package var scope = Scope.all
    /// Why every day was re-reconciled, when `scope` is `all`.
    package var allDaysReason: String?
    /// Days re-reconciled: those of the windows covered (the changed days grown to whole report periods).
    package var daysReconciled = 0
    /// The first day reconciled (`YYYY-MM-DD`), or nil when there was nothing to reconcile (no reports, or no day
    /// changed).
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
