/// The generator's ledger of what it wrote (`manifest.json`), so tests compare ingest results with it instead of
/// hard-coding numbers. Counts of entries, transactions and statuses cover good records only; bad records are
/// counted by reason.
package struct GenerationManifest: Codable, Sendable, Equatable {
    /// One receipt file.
    package struct File: Codable, Sendable, Equatable {
        /// Path relative to the output directory, `receipts/2014-03-01/part-0001.jsonl.gz`.
        package var path: String
        /// Lines in the file.
        package var records: Int
        /// Lines that are good records.
        package var goodRecords: Int
        /// Transaction entries in the file's good records.
        package var transactionEntries: Int

        enum CodingKeys: String, CodingKey {
            case path
            case records
            case goodRecords = "good_records"
            case transactionEntries = "transaction_entries"
        }
    }

    /// Version of this manifest's layout.
    package var formatVersion: Int
    /// The scenario that produced the data.
    package var scenario: ReceiptScenario
    /// `catalog.json`, relative to the output directory.
    package var catalogPath: String
    /// Every receipt file, in the order written.
    package var files: [File]
    /// Lines written (one record per line).
    package var records: Int
    /// Lines that are well-formed records (whatever their status).
    package var goodRecords: Int
    /// Lines that are bad records.
    package var badRecords: Int
    /// Bad records by reason code (every `BadRecordReason` is present, possibly 0).
    package var badRecordsByReason: [String: Int]
    /// Transaction entries read from good records: every `in_app` and `latest_receipt_info` object and every iOS 6
    /// `receipt` object; a transaction that re-appears in later receipts counts each time.
    package var transactionEntries: Int
    /// Distinct (environment, transaction_id) pairs in good records.
    package var distinctTransactions: Int
    /// Distinct transactions by environment (`Production`, `Sandbox`).
    package var distinctTransactionsByEnvironment: [String: Int]
    /// Distinct transactions that some good record shows as `refunded` (a cancellation that is not an upgrade),
    /// `upgraded`, `family-shared` or `trial-period`.
    package var distinctTransactionsWith: [String: Int]
    /// Good records by response `status` (as a decimal string).
    package var receiptsByStatus: [String: Int]
    /// Good records by shape: `ios6` (flat transaction receipt), `ios7` (app receipt), `none` (no receipt).
    package var receiptsByShape: [String: Int]
    /// Good records by the account field the envelope carries (`application_username`,
    /// `application_username_hash`, `app_account_token`, `none`), or `bare` for a bare verifyReceipt response (no
    /// envelope, so no account).
    package var goodRecordsByAccountField: [String: Int]
    /// Good records that are sandbox receipts in this production data: environment Sandbox or status 21007.
    package var sandboxReceipts: Int
    /// Every raw `application_username` that appears in full in the output, good or bad lines, in account order:
    /// none of them may reach the database, logs, quarantine or reports.
    package var rawUsernames: [String]

    /// Creates a manifest.
    package init(
        formatVersion: Int, scenario: ReceiptScenario, catalogPath: String, files: [File], records: Int,
        goodRecords: Int, badRecords: Int, badRecordsByReason: [String: Int], transactionEntries: Int,
        distinctTransactions: Int, distinctTransactionsByEnvironment: [String: Int],
        distinctTransactionsWith: [String: Int], receiptsByStatus: [String: Int], receiptsByShape: [String: Int],
        goodRecordsByAccountField: [String: Int], sandboxReceipts: Int, rawUsernames: [String]
    ) {
        self.formatVersion = formatVersion
        self.scenario = scenario
        self.catalogPath = catalogPath
        self.files = files
        self.records = records
        self.goodRecords = goodRecords
        self.badRecords = badRecords
        self.badRecordsByReason = badRecordsByReason
        self.transactionEntries = transactionEntries
        self.distinctTransactions = distinctTransactions
        self.distinctTransactionsByEnvironment = distinctTransactionsByEnvironment
        self.distinctTransactionsWith = distinctTransactionsWith
        self.receiptsByStatus = receiptsByStatus
        self.receiptsByShape = receiptsByShape
        self.goodRecordsByAccountField = goodRecordsByAccountField
        self.sandboxReceipts = sandboxReceipts
        self.rawUsernames = rawUsernames
    }

    enum CodingKeys: String, CodingKey {
        case formatVersion = "format_version"
        case scenario
        case catalogPath = "catalog_path"
        case files
        case records
        case goodRecords = "good_records"
        case badRecords = "bad_records"
        case badRecordsByReason = "bad_records_by_reason"
        case transactionEntries = "transaction_entries"
        case distinctTransactions = "distinct_transactions"
        case distinctTransactionsByEnvironment = "distinct_transactions_by_environment"
        case distinctTransactionsWith = "distinct_transactions_with"
        case receiptsByStatus = "receipts_by_status"
        case receiptsByShape = "receipts_by_shape"
        case goodRecordsByAccountField = "good_records_by_account_field"
        case sandboxReceipts = "sandbox_receipts"
        case rawUsernames = "raw_usernames"
    }
}
