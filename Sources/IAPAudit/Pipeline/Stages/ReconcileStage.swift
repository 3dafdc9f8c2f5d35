internal import AppStoreFormats
internal import Postgres

/// Recorded purchases against Apple's reports (`reconcile`, and `run` whenever reports are stored: new receipts can
/// settle lines of earlier days too).
package struct ReconcileStage: PipelineStage {
    package var options: ReconcileOptions
    /// Skipped while no report is stored (as in `run`); alone, `reconcile` says there is nothing to reconcile.
    package var onlyWhenReportsStored = false

    package init(_ options: ReconcileOptions, onlyWhenReportsStored: Bool = false) {
        self.options = options
        self.onlyWhenReportsStored = onlyWhenReportsStored
    }

    package var name: String { "reconcile" }
    package var summaryKey: String { "reconciliation" }
    package var recordedSettings: [String: String] {
        [
            "from": options.from?.description ?? "(first report day)",
            "to": options.to?.description ?? "(last report day)",
            "time_zone": options.timeZone,
        ]
    }

    package func isNeeded(in session: StageSession) throws -> Bool {
        guard onlyWhenReportsStored else { return true }
        return try session.workspace.connection.query("SELECT EXISTS (SELECT 1 FROM sales_report_period) AS stored")
            .first(Bool.self, "stored")
    }

    package func run(in session: StageSession) throws -> ReconcileSummary {
        try Reconciler(connection: session.workspace.connection, runID: session.runID, logger: session.workspace.logger)
            .reconcile(options)
    }

    package func summaryLines(_ summary: ReconcileSummary, context: SummaryContext) -> [String] {
        guard context == .alone else {
            let byStatus = summary.linesByStatus.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            return (byStatus.isEmpty ? [] : ["reconciliation: " + byStatus.joined(separator: ", ")])
                + ["reconciled: " + Self.reconciledDays(summary)]
        }
        guard let first = summary.from, let last = summary.to else {
            return ["no reports stored: nothing to reconcile"]
        }
        var lines = [
            "reconciled \(first) … \(last) (\(summary.timeZone)): \(summary.lines) lines, "
                + "\(summary.recordedUnits) units recorded, \(summary.reportedUnits) reported",
            "periods: "
                + summary.periodsByFrequency.sorted(by: { $0.key < $1.key }).map { "\($0.value) \($0.key)" }
                .joined(separator: ", "),
        ]
        if summary.daysWithoutSalesReport > 0 {
            lines.append("days without a sales report (not reconciled): \(summary.daysWithoutSalesReport)")
        }
        for (status, count) in summary.linesByStatus.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(status): \(count)")
        }
        return lines
    }

    /// How many days the run's reconcile covered and why: `3 days that changed` or `240 days (all: time zone
    /// changed from UTC to America/Los_Angeles)`.
    static func reconciledDays(_ summary: ReconcileSummary) -> String {
        let days = "\(summary.daysReconciled) day\(summary.daysReconciled == 1 ? "" : "s")"
        switch summary.scope {
        case .changedDays: return days + " that changed"
        case .window: return days + " of the window asked for"
        case .all: return days + " (all: \(summary.allDaysReason ?? "asked for all days"))"
        }
    }
}
