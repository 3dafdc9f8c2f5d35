internal import Logging
internal import Postgres

/// Keeps the planner's statistics of the receipt tables in step with a large load.
///
/// The per-file statements (the record dedupe, the merge) are planned from these statistics. A fresh or small table
/// has none worth the name until autovacuum's next round, and a whole first load can finish before it: the planner
/// then guesses hundreds of rows per record key and probes with bitmap scans, which doubled the time of a 1M-entry
/// load. The tables are analyzed whenever this run has stored as many receipts as they held at their last analysis
/// (at least `minimumGrowth`), so a first load analyzes a handful of times and a daily run, small beside its
/// history, never.
struct PlannerStatistics {
    static let minimumGrowth = 10_000
    static let tables = ["receipt", "receipt_purchase", "purchase", "pending_renewal"]

    private var storedSinceAnalysis = 0
    private var threshold: Int

    /// Reads the receipt table's size as of its last analysis (none: an empty table).
    init(connection: Connection) throws {
        let estimate = try connection.query(
            "SELECT greatest(reltuples, 0)::bigint FROM pg_class WHERE oid = 'receipt'::regclass",
            context: "read the receipt table's statistics"
        ).int(0, 0)
        threshold = max(Self.minimumGrowth, estimate ?? 0)
    }

    /// Counts `stored` receipts, analyzing the tables when they have grown enough since the last analysis. Only an
    /// aid to the planner: a failure (a lock wait that timed out, say) is logged and the batch goes on, and a
    /// savepoint keeps it from spoiling a dry run's enclosing transaction.
    mutating func record(stored: Int, connection: Connection, logger: Logger) {
        storedSinceAnalysis += stored
        guard storedSinceAnalysis >= threshold else { return }
        do {
            try connection.transaction {
                try connection.execute(
                    script: "ANALYZE " + Self.tables.joined(separator: ", "), context: "analyze the receipt tables")
            }
        } catch {
            logger.warning("could not analyze the receipt tables", metadata: ["error": "\(error)"])
        }
        threshold += storedSinceAnalysis
        storedSinceAnalysis = 0
    }
}
