internal import Postgres

extension Connection {
    /// Takes statistics of those of `tables` of which a tenth of the rows changed since their last ones. Autovacuum
    /// does so in its own time, which after a first large load comes after the plans that need them: planned as if
    /// `purchase` held a few rows, updating `account_purchase` took seconds instead of milliseconds, and reconciling
    /// every day straight after a first ingest of 1M entries was stopped after twelve minutes (seconds with them).
    func analyzeStaleTables(_ tables: [String]) throws {
        // A session reports its counts of changed rows at most once a second: in `run`, the last of ingest's would
        // still be this session's own. PostgreSQL 15 reports them when the statement ends, before the query below.
        if serverVersion >= 150_000 {
            try query("SELECT pg_stat_force_next_flush()", context: "report this session's row counts")
        }
        let stale = try query(
            SQLQuery.staleStatistics.text, [tables], context: "find tables without current statistics")
        for row in stale.allRows {
            let table = try row.decode(String.self, "relname")
            try execute(script: "ANALYZE \(table)", context: "analyze \(table)")
        }
    }
}
