internal import Postgres

/// One row of a site query, its texts by column name. The site's pages read columns by name, so a query's columns
/// can be reordered freely; the columns a page reads are declared with the query (`SiteRow.Columns`) and read when
/// the rows are, so a column the query lacks is an error naming it then, not an empty cell.
struct SiteRow: Sendable, Hashable {
    private let values: [String: String]
    private let columns: Set<String>

    /// Reads `columns` of `row`; throws naming a column the result does not have.
    init(_ row: QueryResult.Row, columns: [String]) throws(PostgresError) {
        var values: [String: String] = [:]
        for column in columns {
            if let value = try row.string(column) { values[column] = value }
        }
        self.values = values
        self.columns = Set(columns)
    }

    /// The text of `column`, nil for SQL NULL. A column not declared for the query is a mistake in this code, which
    /// the site's tests (debug builds) stop at.
    subscript(_ column: String) -> String? {
        assert(columns.contains(column), "site row read undeclared column \(column)")
        return values[column]
    }

    /// The columns each site query's readers use.
    enum Columns {
        static let subjectFlags = [
            "subject_kind", "subject_key", "rule", "severity", "status", "score", "window_start_utc",
            "window_end_utc", "evidence", "flag_id",
        ]
        static let accountHistory = ["account_key", "at_utc", "kind", "ref", "detail", "price", "currency"]
        static let storeAccount = [
            "store_account_key", "original_transaction_id", "first_purchase_utc", "last_purchase_utc",
            "holds_ownable", "app_accounts",
        ]
        static let transaction = [
            "transaction_id", "environment", "product_id", "original_transaction_id", "purchase_utc",
            "cancellation_utc", "file", "line", "source", "account_key", "status", "bundle_id", "store_account_key",
            "history",
        ]
        static let receipt = [
            "id", "file", "line", "account_key", "status", "environment", "is_sandbox", "style", "bundle_id",
            "store_account", "recorded_utc", "transaction_entries", "receipt_data_sha256", "transactions",
        ]
        static let run = [
            "id", "command", "outcome", "exit_code", "started_utc", "finished_utc", "version", "summary",
            "quarantine_by_reason", "open_flags_by_rule", "all_quarantine_by_reason", "all_lines_by_status",
        ]
        static let earlierRun = [
            "id", "command", "outcome", "exit_code", "started_utc", "seconds", "receipt_records", "quarantined",
        ]
        static let flag = [
            "id", "rule", "severity", "status", "subject_kind", "subject_key", "window_start_utc", "window_end_utc",
            "score", "evidence", "raised_utc", "age_days", "receipt_file", "receipt_line", "receipt_account",
        ]
        static let decision = [
            "flag_id", "action", "reason", "note", "actor", "database_user", "decided_utc", "rule_version",
            "status_after",
        ]
    }
}
