internal import AppStoreFormats
internal import Foundation
package import Logging
package import Postgres

/// Compares recorded purchases with Apple's reports over a window of days and rewrites that window's
/// `reconciliation_line`s (docs/reconciliation.md). The work is the set-based SQL in `sql/queries/reconcile.sql`.
package struct Reconciler {
    private let connection: Connection
    private let runID: Int64?
    private let logger: Logger

    /// A reconciler writing through `connection`, attributing lines to run `runID`.
    package init(connection: Connection, runID: Int64?, logger: Logger) {
        self.connection = connection
        self.runID = runID
        self.logger = logger
    }

    /// Reconciles in one transaction: the window `options` names, every day, or (incremental, no window) the days
    /// that changed since the last reconcile. The same data always gives the same lines.
    package func reconcile(_ options: ReconcileOptions) throws -> ReconcileSummary {
        var summary = ReconcileSummary(timeZone: options.timeZone)
        let state = try recordedState()
        // The zone the stored lines were made in was checked then; pg_timezone_names reads the whole zone database.
        if state["time_zone"] != options.timeZone {
            let zone = try connection.query(
                "SELECT 1 FROM pg_timezone_names WHERE name = $1", [options.timeZone], context: "check time zone")
            guard zone.rowCount == 1 else {
                throw IAPAuditError.usage(
                    "unknown time zone \"\(options.timeZone)\"; use an IANA name such as "
                        + ReconcileOptions.defaultTimeZone)
            }
        }
        let span = try connection.query(
            "SELECT min(begin_date)::text AS first_day, max(end_date)::text AS last_day FROM sales_report_period",
            context: "report span")
        guard let from = try options.from?.description ?? span.first(String?.self, "first_day"),
            let to = try options.to?.description ?? span.first(String?.self, "last_day")
        else {
            logger.info("no reports stored: nothing to reconcile")
            return summary
        }
        let isWindow = options.from != nil || options.to != nil
        guard from <= to else { throw IAPAuditError.usage("--from \(from) is after --to \(to)") }
        let catalog = try connection.query(
            SQLQuery.reconcileCatalogFingerprint.text, context: "catalog fingerprint"
        ).first(String.self, "fingerprint")
        if isWindow {
            summary.scope = .window
        } else if options.isIncremental,
            let reason = Self.reasonForAllDays(state: state, timeZone: options.timeZone, catalog: catalog)
        {
            summary.scope = .all
            summary.allDaysReason = reason
        } else if options.isIncremental {
            summary.scope = .changedDays
        } else {
            summary.scope = .all
            summary.allDaysReason = "asked for all days"
        }
        let stopwatch = Stopwatch()
        try connection.analyzeStaleTables(Self.tablesRead)
        try connection.transaction { () throws -> Void in
            if summary.scope == .changedDays {
                // A few days' work: compiling its plans (estimated from temporary tables) would cost more than running
                // them, as in an incremental detect. Its purchases, tens of thousands, are read by index from tables
                // the last days' runs kept in memory; at the default random_page_cost (4: spinning disks) the planner
                // read all of `purchase` instead, a cost that grows with the history.
                try connection.planForFewRowsUntilCommit()
                try connection.runQueryFile(
                    .reconcileChanges, parameters: [options.timeZone], context: "reconcile: changed days")
            } else {
                try connection.runQueryFile(
                    .reconcileWindow, parameters: [from, to], context: "reconcile \(from)…\(to)")
            }
            let windows = try connection.query(SQLQuery.reconcileWindowSpan.text, context: "reconcile: the windows")
            summary.from = try windows.first(String?.self, "first_day")
            summary.to = try windows.first(String?.self, "last_day")
            summary.daysReconciled = try windows.first(Int.self, "days")
            // Only the first statement names parameters; the rest read them from rc_setting.
            try connection.runQueryFile(
                .reconcile, parameters: [options.timeZone, runID.map { Int($0) }, summary.scope.rawValue],
                context: "reconcile \(from)…\(to)")
            try summarize(into: &summary)
            // What the stored lines now reflect. A forced window leaves the changed days outside it for later.
            if summary.scope != .window {
                try record(timeZone: options.timeZone, catalog: catalog)
            }
        }
        let seconds = stopwatch.seconds
        logger.info(
            "reconciled",
            metadata: [
                "scope": "\(summary.scope.rawValue)", "days": "\(summary.daysReconciled)",
                "from": "\(summary.from ?? "-")", "to": "\(summary.to ?? "-")", "lines": "\(summary.lines)",
                "seconds": "\(String(format: "%.2f", seconds))",
            ])
        return summary
    }

    /// The tables ingest writes that reconcile reads, whose statistics it brings up to date first
    /// (`analyzeStaleTables`): `reconcile` may follow an ingest directly, before autovacuum has seen the new rows.
    private static let tablesRead = [
        "purchase", "receipt_purchase", "sales_report", "sales_report_period", "sales_report_row",
    ]

    /// The settings the stored lines were made with (`reconcile_state`), by name.
    private func recordedState() throws -> [String: String] {
        let state = try connection.query("SELECT name, value FROM reconcile_state", context: "reconcile state")
        var values: [String: String] = [:]
        for row in state.allRows {
            values[try row.decode(String.self, "name")] = try row.decode(String.self, "value")
        }
        return values
    }

    /// Why the next incremental reconcile must cover every day, or nil when the changed days will do: no record of
    /// an earlier reconcile, or one made in another time zone or with another catalog.
    private static func reasonForAllDays(state: [String: String], timeZone: String, catalog: String) -> String? {
        guard let zone = state["time_zone"] else { return "no earlier reconcile recorded" }
        if zone != timeZone { return "time zone changed from \(zone) to \(timeZone)" }
        if state["catalog"] != catalog { return "catalog changed" }
        return nil
    }

    /// Marks every receipt and sales file stored as reconciled, with the settings the lines were made with.
    private func record(timeZone: String, catalog: String) throws {
        try connection.runQueryFile(
            .reconcileRecordFiles, parameters: [runID.map { Int($0) }], context: "record reconciled files")
        try connection.runQueryFile(
            .reconcileRecordSettings, parameters: [timeZone, catalog], context: "record reconcile settings")
    }

    /// Fills the summary from the transaction's temporary tables and the lines of the windows.
    private func summarize(into summary: inout ReconcileSummary) throws {
        let periods = try connection.query("SELECT frequency, count(*) AS periods FROM rc_period GROUP BY 1")
        for row in periods.allRows {
            summary.periodsByFrequency[try row.decode(String.self, "frequency")] = try row.decode(Int.self, "periods")
        }
        summary.daysWithoutSalesReport = try connection.query(
            SQLQuery.reconcileDaysWithoutSales.text, context: "reconcile: days without a sales report"
        ).first(Int.self, "days")
        let lines = try connection.query(SQLQuery.reconcileLinesByStatus.text, context: "reconcile: lines by status")
        for row in lines.allRows {
            summary.linesByStatus[try row.decode(String.self, "status")] = try row.decode(Int.self, "lines")
            summary.recordedUnits += try row.decode(Int.self, "recorded_units")
            summary.reportedUnits += try row.decode(Int.self, "reported_units")
        }
    }
}
