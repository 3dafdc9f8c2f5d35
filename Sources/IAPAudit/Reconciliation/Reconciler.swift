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

    /// Reconciles the window in one transaction: the same data always gives the same lines.
    package func reconcile(_ options: ReconcileOptions) throws -> ReconcileSummary {
        var summary = ReconcileSummary(timeZone: options.timeZone)
        let zone = try connection.query(
            "SELECT 1 FROM pg_timezone_names WHERE name = $1", [options.timeZone], context: "check time zone")
        guard zone.rowCount == 1 else {
            throw IAPAuditError.usage(
                "unknown time zone \"\(options.timeZone)\"; use an IANA name such as "
                    + ReconcileOptions.defaultTimeZone)
        }
        let span = try connection.query(
            "SELECT min(begin_date)::text, max(end_date)::text FROM sales_report_period", context: "report span")
        guard let from = options.from?.description ?? span.string(0, 0),
            let to = options.to?.description ?? span.string(0, 1)
        else {
            logger.info("no reports stored: nothing to reconcile")
            return summary
        }
        guard from <= to else { throw IAPAuditError.usage("--from \(from) is after --to \(to)") }
        summary.from = from
        summary.to = to
        let stopwatch = Stopwatch()
        try connection.transaction { () throws -> Void in
            for (index, statement) in try SQLResources.statements(ofQuery: "reconcile").enumerated() {
                // Only the first statement takes parameters; the rest read them from rc_setting.
                let parameters: [(any PostgresParameter)?] =
                    index == 0 ? [from, to, options.timeZone, runID.map { Int($0) }] : []
                try connection.query(statement, parameters, context: "reconcile \(from)…\(to)")
            }
            let periods = try connection.query("SELECT frequency, count(*) FROM rc_period GROUP BY 1")
            for row in 0..<periods.rowCount {
                summary.periodsByFrequency[try periods.requireString(row, 0)] = try periods.requireInt(row, 1)
            }
            summary.daysWithoutSalesReport =
                try connection.query(
                    """
                    SELECT count(*) FROM rc_setting w, generate_series(w.first_day, w.last_day, interval '1 day') d(day)
                    WHERE NOT EXISTS (SELECT 1 FROM rc_period p WHERE p.source = 'sales'
                        AND d.day::date BETWEEN p.begin_date AND p.end_date)
                    """
                ).requireInt(0, 0)
            let lines = try connection.query(
                """
                SELECT status, count(*), coalesce(sum(recorded_units), 0), coalesce(sum(reported_units), 0)
                FROM reconciliation_line l, rc_setting w
                WHERE l.period_begin <= w.last_day AND l.period_end >= w.first_day
                GROUP BY status
                """)
            for row in 0..<lines.rowCount {
                summary.linesByStatus[try lines.requireString(row, 0)] = try lines.requireInt(row, 1)
                summary.recordedUnits += try lines.requireInt(row, 2)
                summary.reportedUnits += try lines.requireInt(row, 3)
            }
        }
        let seconds = stopwatch.seconds
        logger.info(
            "reconciled",
            metadata: [
                "from": "\(from)", "to": "\(to)", "lines": "\(summary.lines)",
                "seconds": "\(String(format: "%.2f", seconds))",
            ])
        return summary
    }
}
