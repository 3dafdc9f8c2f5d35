package import Logging
package import Postgres

/// Where each table lives on a Citus cluster (docs/scale.md, "Citus"): the bulk tables are split across the workers
/// by one column, the small ones are copied to every worker (reference tables), so that any table joins any other.
///
/// On plain PostgreSQL none of this runs. On a Citus coordinator (the `citus` extension is present in the database)
/// every command places, after migrating, each table that is not placed yet; a table a later migration adds is placed
/// by the first command that sees it.
package enum CitusDistribution {
    /// How one table is placed.
    package enum Placement: Equatable, Sendable {
        /// A copy on every node: small tables joined with everything, and changed only by plain inserts and upserts.
        case reference
        /// On the coordinator alone ("Citus local"): the pipeline's own bookkeeping, which it changes from its
        /// temporary tables; Citus cannot change a reference table from a temporary table, which lives on the
        /// coordinator only.
        case coordinator
        /// Split by `column`; tables split by related columns share a colocation group, so their joins on it stay on
        /// one worker.
        case distributed(by: String, colocatedWith: String?)
    }

    /// Every table of the schema, in the order they are placed: reference tables first, because distributed tables
    /// have foreign keys to them; within a colocation group, its first table first.
    package static let placements: [(table: String, placement: Placement)] = [
        ("schema_migration", .reference),
        ("schema_view", .reference),
        ("install_setting", .reference),
        ("pipeline_run", .reference),
        ("input_file", .reference),
        ("known_file", .reference),
        ("app", .reference),
        ("product", .reference),
        ("sales_report", .reference),
        ("sales_report_period", .reference),
        ("sales_report_finding", .reference),
        ("store_account", .reference),
        ("store_account_merge", .reference),
        ("store_account_recorded", .reference),
        ("store_account_app_transaction", .reference),
        // Month-end (issue 33): a few rows per Payments summary file and per month entered; joined with reports.
        ("payment_summary", .reference),
        ("payment_region", .reference),
        ("payment_paid", .reference),
        ("bank_deposit", .reference),
        ("reconciliation_line", .coordinator),
        ("reconcile_state", .coordinator),
        ("reconcile_file", .coordinator),
        ("reconcile_recorded_day", .coordinator),
        ("detection_state", .coordinator),
        ("detect_file", .coordinator),
        ("detect_pending", .coordinator),
        ("store_account_file", .coordinator),
        // What fetch asked Apple for (docs/fetching.md): read and written by fetch alone, joined with nothing.
        ("apple_report_fetch", .coordinator),
        ("apple_notification_window", .coordinator),
        ("apple_history_revision", .coordinator),
        // Triage decisions (docs/triage.md): appended one at a time, read with the flags; beside flag_decide.
        ("flag_decision", .coordinator),
        // The erasure log (docs/privacy.md): a row per erasure, read with nothing.
        ("erasure", .coordinator),
        // The receipt side, by receipt id: written by COPY per file, read by receipt.
        ("receipt", .distributed(by: "id", colocatedWith: nil)),
        ("receipt_summary", .distributed(by: "id", colocatedWith: "receipt")),
        ("receipt_purchase", .distributed(by: "receipt_id", colocatedWith: "receipt")),
        ("pending_renewal", .distributed(by: "receipt_id", colocatedWith: "receipt")),
        ("signed_object", .distributed(by: "receipt_id", colocatedWith: "receipt")),
        ("purchase_conflict", .distributed(by: "receipt_id", colocatedWith: "receipt")),
        // The transaction side, by transaction id (and the keys grouped with transactions).
        ("purchase", .distributed(by: "transaction_id", colocatedWith: nil)),
        ("purchase_state", .distributed(by: "transaction_id", colocatedWith: "purchase")),
        ("store_account_member", .distributed(by: "original_transaction_id", colocatedWith: "purchase")),
        ("account_purchase", .distributed(by: "account_key", colocatedWith: "purchase")),
        ("flag", .distributed(by: "subject_key", colocatedWith: "purchase")),
        // Files' rows, by file.
        ("sales_report_row", .distributed(by: "file_id", colocatedWith: nil)),
        ("quarantine", .distributed(by: "id", colocatedWith: nil)),
    ]

    /// Whether the connected database is a Citus coordinator's.
    package static func isPresent(on connection: Connection) throws -> Bool {
        try connection.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'", context: "look for Citus")
            .rowCount > 0
    }

    /// Per session on a coordinator: joins between distributed tables that are not on their distribution columns
    /// (a receipt's transactions, a transaction's receipts) run as repartition joins instead of failing.
    package static func configureSession(_ connection: Connection) throws {
        try connection.execute(
            script: "SET citus.enable_repartition_joins = on", context: "allow Citus repartition joins")
    }

    /// Places every table not placed yet (on a coordinator: `isPresent`). Once all are, a command's start reads one
    /// catalog table and places nothing.
    package static func placeTables(_ connection: Connection, logger: Logger) throws {
        let placed = try placedTables(connection)
        for (table, placement) in placements where !placed.contains(table) {
            try connection.transaction {
                // Two commands starting at once on a new cluster: the second waits, then sees the table placed.
                try connection.advisoryTransactionLock(Migrator.lockKey)
                guard try !placedTables(connection).contains(table) else { return }
                switch placement {
                case .reference:
                    try connection.query(
                        "SELECT create_reference_table($1)", [table], context: "make \(table) a reference table")
                case .coordinator:
                    try connection.query(
                        "SELECT citus_add_local_table_to_metadata($1)", [table],
                        context: "keep \(table) on the coordinator")
                case .distributed(let column, let colocatedWith):
                    try connection.query(
                        "SELECT create_distributed_table($1, $2, colocate_with => $3)",
                        [table, column, colocatedWith ?? "default"], context: "distribute \(table)")
                }
                logger.info("placed table on the Citus cluster", metadata: ["table": "\(table)", "as": "\(placement)"])
            }
        }
    }

    /// The tables placed where `placements` puts them. A Citus local table counts only where that is its place:
    /// Citus makes one by itself of a table with a foreign key to a reference table (input_file once pipeline_run is
    /// one), which is then still to be placed.
    private static func placedTables(_ connection: Connection) throws -> Set<String> {
        let found = try connection.query(
            "SELECT logicalrelid::regclass::text AS name, partmethod = 'h' OR repmodel = 't' AS is_placed FROM pg_dist_partition",
            context: "read the placed tables")
        let placementOf = Dictionary(uniqueKeysWithValues: placements.map { ($0.table, $0.placement) })
        return Set(
            try found.allRows.compactMap { row in
                guard let table = try row.string("name") else { return nil }
                return try row.decode(Bool?.self, "is_placed") == true || placementOf[table] == .coordinator
                    ? table : nil
            })
    }
}
