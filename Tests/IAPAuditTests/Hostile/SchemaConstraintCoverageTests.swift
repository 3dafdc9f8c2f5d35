import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit
@testable import SyntheticData

/// Every constraint the schema puts on a stored value is checked where the record is parsed (issue 30, item 1): the
/// catalog's column types, NOT NULLs, CHECKs and index keys are read, and for each one a value from an input can
/// reach, a file of good records around one that violates it goes through the binary — the neighbours are stored,
/// the bad one is quarantined with its reason. A constraint added later is listed by the same query: the test fails
/// until it is given a violating record here or the reason no record's value reaches it.
struct SchemaConstraintCoverageTests {
    /// How a catalog constraint is kept from failing a file.
    enum Coverage {
        /// A record that violates it, in a receipt file or a sales report, and the reason it must be quarantined with.
        case record(Bad, reason: String)
        /// No value of a record reaches it: the pipeline sets it, or the value was checked for another column.
        case pipeline(String)
    }

    /// The one bad record of a coverage file.
    enum Bad {
        /// A verifyReceipt record with these members set (a JSON value's text) or removed (nil), by path.
        case receipt([String: String?])
        /// A recorded envelope with one signed transaction whose payload has these members set.
        case signed([String: String])
        /// A sales report row with these columns (by 0-based index in the 20-column layout) replaced.
        case salesRow([Int: String])
    }

    // MARK: The catalog

    /// The tables a record's values are written to; every other table must say why none are.
    static let recordTables: Set<String> = [
        "receipt", "purchase", "receipt_purchase", "purchase_conflict", "pending_renewal", "signed_object",
        "sales_report_row",
    ]

    /// Tables no record's values reach, and why.
    static let otherTables: [String: String] = [
        "pipeline_run": "the run's own record", "install_setting": "settings of the installation",
        "input_file": "one row per file: hash, size, path and counts the pipeline computes",
        "known_file": "file facts from stat(2), saturated (FileStat)", "quarantine": "written by the pipeline",
        "schema_migration": "the migrator's", "schema_view": "the migrator's",
        "app": "the catalog: refused whole, never stored in part",
        "product": "the catalog: refused whole, never stored in part",
        "sales_report": "a report's header facts, from its name and header line",
        "sales_report_period": "the begin and end dates of stored rows, checked as sales_report_row's",
        "sales_report_finding": "what the parser found, its own text", "flag": "detection's output",
        "flag_decision": "analysts' decisions, checked by flag_decide (docs/triage.md)",
        "erasure": "the erasure log: counts the erase command computes (docs/privacy.md)",
        "detection_state": "detection's own", "detect_file": "detection's own", "detect_pending": "detection's own",
        "store_account": "detection's clusters", "store_account_member": "detection's clusters",
        "store_account_recorded": "detection's clusters", "store_account_merge": "detection's clusters",
        "store_account_file": "detection's own", "store_account_app_transaction": "detection's clusters",
        "account_purchase": "copies of stored purchase values",
        "purchase_state": "copies of staged purchase values (refund, revocation, upgrade), checked as purchase's",
        "receipt_summary": "copies of stored receipt values",
        "reconciliation_line": "reconciliation's output", "reconcile_file": "reconciliation's own",
        "reconcile_recorded_day": "reconciliation's own", "reconcile_state": "reconciliation's own",
        "apple_report_fetch": "the fetch's own: which reports Apple had published; their rows come in as files",
        "apple_notification_window": "the fetch's own: where a window's pages stopped; the pages come in as files",
        "apple_history_revision": "the fetch's own: Apple's revision token; the pages come in as files",
        "payment_summary": "a Payments summary's month, from its title (PaymentsSummaryReader.month checks its range)",
        "payment_region": "a Payments summary row read by PaymentsRegion.read: every NOT NULL value is present or the "
            + "row is quarantined, amounts are unbounded numeric, Units Sold is checked against Int32",
        "payment_paid": "a Payments footer read by PaymentsSummaryReader: an amount and a three-letter currency",
        "bank_deposit": "entered by a person through `month-end bank`, validated by the command",
    ]

    /// The types whose values have limits a record can exceed; text, boolean, bytea, jsonb and unconstrained numeric
    /// take whatever a parser yields (NUL and invalid UTF-8, text's only limits, are HostileInputTests').
    static let boundedTypes: Set<String> = ["integer", "bigint", "timestamp with time zone", "date", "uuid"]

    /// Every constraint on a stored value of `recordTables`, named `table.column kind` or `table constraint`.
    static func constraints(_ connection: Connection) throws -> (items: [String], tables: [String]) {
        let tables = try connection.query(
            "SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')"
        ).rows.compactMap { $0[0] }
        let items = try connection.query(
            """
            WITH t AS (SELECT c.oid, c.relname FROM pg_class c WHERE c.relname = ANY ($1::text[])
                         AND c.relnamespace = 'public'::regnamespace)
            SELECT t.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
            FROM t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE format_type(a.atttypid, a.atttypmod) = ANY ($2::text[])
            UNION ALL
            SELECT t.relname || '.' || a.attname || ' not null'
            FROM t JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull
            UNION ALL
            SELECT t.relname || ' ' || k.conname FROM t JOIN pg_constraint k ON k.conrelid = t.oid
            WHERE k.contype IN ('c', 'f', 'x')
            UNION ALL
            SELECT t.relname || ' index ' || i.indexrelid::regclass::text || ' (' || a.attname || ')'
            FROM t JOIN pg_index i ON i.indrelid = t.oid
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (i.indkey)
            ORDER BY 1
            """, ["{" + recordTables.sorted().joined(separator: ",") + "}", Self.arrayLiteral(boundedTypes.sorted())]
        ).rows.compactMap { $0[0] }
        return (items, tables)
    }

    static func arrayLiteral(_ values: [String]) -> String {
        "{" + values.map { "\"" + $0 + "\"" }.joined(separator: ",") + "}"
    }

    // MARK: What covers each constraint

    static let outOfRangeDate = "\"-62167219200000\""
    static let outOfRangeInteger = "\"2147483648\""
    static let longIdentifier = "\"" + String(repeating: "7", count: 3000) + "\""

    static let coverage: [String: Coverage] = [
        // receipt
        "receipt.recorded_at timestamp with time zone": .record(
            .receipt(["recorded_at": "\"9223372036854776\""]), reason: "invalid-date"),
        "receipt.receipt_creation_date timestamp with time zone": .record(
            .receipt(["response.receipt.receipt_creation_date_ms": "\"-9300000000000000\""]), reason: "invalid-date"),
        "receipt.request_date timestamp with time zone": .record(
            .receipt(["response.receipt.request_date_ms": "\"9300000000000000\""]), reason: "invalid-date"),
        "receipt.original_purchase_date timestamp with time zone": .record(
            .receipt(["response.receipt.original_purchase_date_ms": outOfRangeDate]), reason: "invalid-date"),
        "receipt.status integer": .record(.receipt(["response.status": outOfRangeInteger]), reason: "invalid-number"),
        "receipt.status not null": .record(.receipt(["response.status": nil]), reason: "missing-field"),
        "receipt.app_account_token uuid": .record(
            .receipt(["app_account_token": "\"not-a-uuid\""]), reason: "invalid-value"),
        "receipt.id bigint": .pipeline("file id and record number (receipt_check)"),
        "receipt.id not null": .pipeline("file id and record number"),
        "receipt receipt_check": .pipeline("the id is computed from file id and record number"),
        "receipt index receipt_pkey (id)": .pipeline("the id is computed from file id and record number"),
        "receipt.file_id bigint": .pipeline("reserved by the pipeline"),
        "receipt.file_id not null": .pipeline("reserved by the pipeline"),
        "receipt.record_number integer": .pipeline("counted by the reader"),
        "receipt.record_number not null": .pipeline("counted by the reader"),
        "receipt.line integer": .pipeline("counted by the reader"),
        "receipt.line not null": .pipeline("counted by the reader"),
        "receipt.shape not null": .pipeline("the shape the parser recognised"),
        "receipt.style not null": .pipeline("the style the parser recognised"),
        "receipt.is_sandbox not null": .pipeline("derived from the environment"),
        "receipt.transaction_entries integer": .pipeline("counted by the parser"),
        "receipt.transaction_entries not null": .pipeline("counted by the parser"),
        "receipt.raw not null": .pipeline("the record's own text"),
        "receipt.record_key bigint": .pipeline("a hash of the record"),
        "receipt index receipt_account_key_idx (account_key)": .pipeline("a 71-character hash"),
        "receipt index receipt_date_disagreements_idx (id)": .pipeline("the computed id"),
        "receipt index receipt_record_key_idx (record_key)": .pipeline("a hash of the record"),
        // purchase
        "purchase.quantity integer": .record(
            .receipt(["response.receipt.in_app.0.quantity": outOfRangeInteger]), reason: "invalid-number"),
        "purchase.quantity not null": .pipeline("1 when absent"),
        "purchase.purchase_date timestamp with time zone": .record(
            .receipt(["response.receipt.in_app.0.purchase_date_ms": outOfRangeDate]), reason: "invalid-date"),
        "purchase.original_purchase_date timestamp with time zone": .record(
            .receipt(["response.receipt.in_app.0.original_purchase_date_ms": "\"9300000000000000\""]),
            reason: "invalid-date"),
        "purchase.expires_date timestamp with time zone": .record(
            .receipt(["response.receipt.in_app.0.expires_date_ms": outOfRangeDate]), reason: "invalid-date"),
        "purchase.cancellation_date timestamp with time zone": .record(
            .receipt(["response.receipt.in_app.0.cancellation_date_ms": outOfRangeDate]), reason: "invalid-date"),
        "purchase.cancellation_reason integer": .record(
            .receipt(["response.receipt.in_app.0.cancellation_reason": outOfRangeInteger]), reason: "invalid-number"),
        "purchase.app_account_token uuid": .record(
            .receipt(["response.receipt.in_app.0.app_account_token": "\"not-a-uuid\""]), reason: "invalid-value"),
        "purchase.transaction_id not null": .record(
            .receipt(["response.receipt.in_app.0.transaction_id": nil]), reason: "missing-field"),
        "purchase.product_id not null": .record(
            .receipt(["response.receipt.in_app.0.product_id": nil]), reason: "missing-field"),
        "purchase index purchase_pkey (transaction_id)": .record(
            .receipt(["response.receipt.in_app.0.transaction_id": longIdentifier]), reason: "value-too-long"),
        "purchase index purchase_billing_period_idx (original_transaction_id)": .record(
            .receipt(["response.receipt.in_app.0.original_transaction_id": longIdentifier]), reason: "value-too-long"),
        "purchase index purchase_billing_period_idx (web_order_line_item_id)": .record(
            .receipt(["response.receipt.in_app.0.web_order_line_item_id": longIdentifier]), reason: "value-too-long"),
        "purchase index purchase_cancellation_date_idx (cancellation_date)": .record(
            .receipt(["response.receipt.in_app.0.cancellation_date_ms": "\"9300000000000000\""]),
            reason: "invalid-date"),
        "purchase index purchase_purchase_date_idx (purchase_date)": .record(
            .receipt(["response.receipt.in_app.0.purchase_date": "\"0000-12-31 23:00:00 Etc/GMT\""]),
            reason: "invalid-date"),
        "purchase index purchase_id_idx (id)": .pipeline("a sequence"),
        "purchase index purchase_pkey (environment)": .pipeline("Production or Sandbox, from the receipt"),
        "purchase.environment not null": .pipeline("Production or Sandbox, from the receipt"),
        "purchase purchase_environment_check": .pipeline(
            "only Production and Sandbox become purchases; a record of any other environment is kept and never a "
                + "purchase (SigningDateAndEnvironmentTests sends Xcode, LocalTesting and sandbox through the binary)"),
        "purchase.signed_date timestamp with time zone": .record(
            .signed(["signedDate": "-62167219200000"]), reason: "invalid-date"),
        "purchase.revocation_date timestamp with time zone": .record(
            .signed(["revocationDate": "9300000000000000"]), reason: "invalid-date"),
        "purchase.revocation_reason integer": .record(
            .signed(["revocationReason": "2147483648"]), reason: "invalid-number"),
        "purchase.revocation_percentage integer": .record(
            .signed(["revocationPercentage": "2147483648"]), reason: "invalid-number"),
        "purchase.offer_type integer": .record(.signed(["offerType": "2147483648"]), reason: "invalid-number"),
        "purchase.price bigint": .record(.signed(["price": "9223372036854775808"]), reason: "invalid-number"),
        "purchase.id bigint": .pipeline("a sequence"), "purchase.id not null": .pipeline("a sequence"),
        "purchase.first_receipt_id bigint": .pipeline("the computed receipt id"),
        "purchase.first_receipt_id not null": .pipeline("the computed receipt id"),
        "purchase.changed_receipt_id bigint": .pipeline("the computed receipt id"),
        "purchase.has_state not null": .pipeline("false, set by the merge when purchase_state keeps the transaction"),
        // receipt_purchase, purchase_conflict: the pipeline's links, and copies of values checked for purchase
        "receipt_purchase.receipt_id bigint": .pipeline("the computed receipt id"),
        "receipt_purchase.receipt_id not null": .pipeline("the computed receipt id"),
        "receipt_purchase.ordinal integer": .pipeline("the entry's index"),
        "receipt_purchase.ordinal not null": .pipeline("the entry's index"),
        "receipt_purchase.source not null": .pipeline("where the parser found the entry"),
        "receipt_purchase receipt_purchase_source_check": .pipeline("where the parser found the entry"),
        "receipt_purchase.environment not null": .pipeline("the purchase's, checked there"),
        "receipt_purchase.transaction_id not null": .pipeline("the purchase's, checked there"),
        "receipt_purchase index receipt_purchase_transaction_idx (transaction_id)": .pipeline(
            "the purchase's, checked there (purchase_pkey)"),
        "receipt_purchase index receipt_purchase_pkey (receipt_id)": .pipeline("the computed receipt id"),
        "receipt_purchase index receipt_purchase_pkey (source)": .pipeline("where the parser found the entry"),
        "receipt_purchase index receipt_purchase_pkey (ordinal)": .pipeline("the entry's index"),
        "purchase_conflict.id bigint": .pipeline("a sequence"),
        "purchase_conflict.id not null": .pipeline("a sequence"),
        "purchase_conflict.purchase_id bigint": .pipeline("the purchase's id"),
        "purchase_conflict.purchase_id not null": .pipeline("the purchase's id"),
        "purchase_conflict.receipt_id bigint": .pipeline("the computed receipt id"),
        "purchase_conflict.receipt_id not null": .pipeline("the computed receipt id"),
        "purchase_conflict.ordinal integer": .pipeline("the entry's index"),
        "purchase_conflict.ordinal not null": .pipeline("the entry's index"),
        "purchase_conflict.source not null": .pipeline("where the parser found the entry"),
        "purchase_conflict.product_id not null": .pipeline("the purchase's, checked there"),
        "purchase_conflict.purchase_date timestamp with time zone": .pipeline("the purchase's, checked there"),
        "purchase_conflict index purchase_conflict_pkey (receipt_id)": .pipeline("the computed receipt id"),
        "purchase_conflict index purchase_conflict_pkey (source)": .pipeline("where the parser found the entry"),
        "purchase_conflict index purchase_conflict_pkey (ordinal)": .pipeline("the entry's index"),
        // pending_renewal
        "pending_renewal.expiration_intent integer": .record(
            .receipt(["response.pending_renewal_info.0.expiration_intent": outOfRangeInteger]),
            reason: "invalid-number"),
        "pending_renewal.price_consent_status integer": .record(
            .receipt(["response.pending_renewal_info.0.price_consent_status": outOfRangeInteger]),
            reason: "invalid-number"),
        "pending_renewal.grace_period_expires_date timestamp with time zone": .record(
            .receipt(["response.pending_renewal_info.0.grace_period_expires_date_ms": outOfRangeDate]),
            reason: "invalid-date"),
        "pending_renewal.receipt_id bigint": .pipeline("the computed receipt id"),
        "pending_renewal.receipt_id not null": .pipeline("the computed receipt id"),
        "pending_renewal.ordinal integer": .pipeline("the entry's index"),
        "pending_renewal.ordinal not null": .pipeline("the entry's index"),
        "pending_renewal index pending_renewal_pkey (receipt_id)": .pipeline("the computed receipt id"),
        "pending_renewal index pending_renewal_pkey (ordinal)": .pipeline("the entry's index"),
        // signed_object
        "signed_object.signed_date timestamp with time zone": .record(
            .signed(["signedDate": "9300000000000000"]), reason: "invalid-date"),
        "signed_object.receipt_id bigint": .pipeline("the computed receipt id"),
        "signed_object.receipt_id not null": .pipeline("the computed receipt id"),
        "signed_object.ordinal integer": .pipeline("the object's index"),
        "signed_object.ordinal not null": .pipeline("the object's index"),
        "signed_object.kind not null": .pipeline("what the parser recognised"),
        "signed_object.path not null": .pipeline("where the parser found it"),
        "signed_object.outcome not null": .pipeline("the verifier's outcome"),
        "signed_object index signed_object_unverified_idx (receipt_id)": .pipeline("the computed receipt id"),
        "signed_object index signed_object_pkey (receipt_id)": .pipeline("the computed receipt id"),
        "signed_object index signed_object_pkey (ordinal)": .pipeline("the object's index"),
        // sales_report_row
        "sales_report_row.units integer": .record(.salesRow([7: "2147483648"]), reason: "invalid-number"),
        "sales_report_row.units not null": .pipeline("0 when the layout has none"),
        "sales_report_row.begin_date date": .record(.salesRow([9: "01/01/0000"]), reason: "invalid-date"),
        "sales_report_row.end_date date": .record(.salesRow([10: "12/32/2014"]), reason: "invalid-date"),
        "sales_report_row.settlement_date date": .pipeline(
            "finance-detail rows only, parsed as a date like begin_date's (FinanceDetailReportTests: invalid-date)"),
        "sales_report_row.vendor_identifier not null": .record(.salesRow([2: " "]), reason: "missing-key"),
        "sales_report_row.product_type_identifier not null": .record(.salesRow([6: " "]), reason: "missing-key"),
        "sales_report_row.product_type not null": .pipeline("named from the product type identifier"),
        "sales_report_row.file_id bigint": .pipeline("reserved by the pipeline"),
        "sales_report_row.file_id not null": .pipeline("reserved by the pipeline"),
        "sales_report_row.line integer": .pipeline("counted by the reader"),
        "sales_report_row.line not null": .pipeline("counted by the reader"),
        "sales_report_row.column_values not null": .pipeline("the line's own fields"),
        "sales_report_row index sales_report_row_pkey (file_id)": .pipeline("reserved by the pipeline"),
        "sales_report_row index sales_report_row_pkey (line)": .pipeline("counted by the reader"),
        "sales_report_row index sales_report_row_dates_idx (begin_date)": .record(
            .salesRow([9: "13/01/2014"]), reason: "invalid-date"),
        "sales_report_row index sales_report_row_dates_idx (end_date)": .record(
            .salesRow([10: "03/02/10000"]), reason: "invalid-date"),
    ]

    @Test func everyConstraintOnAStoredValueIsCoveredAndEveryTableAccountedFor() throws {
        let test = try TestWorkspace()
        let (items, tables) = try Self.constraints(test.connection)
        #expect(items.count > 50, "the catalog query found \(items.count) constraints")
        let unknownTables = tables.filter { !Self.recordTables.contains($0) && Self.otherTables[$0] == nil }
        #expect(unknownTables.isEmpty, "tables neither written from records nor said why not: \(unknownTables)")
        let uncovered = items.filter { Self.coverage[$0] == nil }
        #expect(uncovered.isEmpty, "constraints with no violating record nor a reason none reaches them: \(uncovered)")
        let stale = Self.coverage.keys.filter { !items.contains($0) }.sorted()
        #expect(stale.isEmpty, "coverage for constraints the catalog no longer has: \(stale)")
    }

    @Test func aRecordViolatingEachConstraintIsQuarantinedAndItsNeighboursStored() throws {
        let test = try TestWorkspace()
        let receipts = test.directory.appendingPathComponent("receipts")
        let sales = test.directory.appendingPathComponent("sales")
        var expectations: [(name: String, path: String, reason: String, isSales: Bool, neighbours: [String])] = []
        for (index, (name, coverage)) in Self.coverage.sorted(by: { $0.key < $1.key }).enumerated() {
            guard case .record(let bad, let reason) = coverage else { continue }
            let first = 100_000 + index * 10
            switch bad {
            case .receipt, .signed:
                let badLine = try Self.line(bad, id: first + 1)
                let path = try test.write(
                    "receipts/\(index).jsonl",
                    [Self.goodReceipt(first), badLine, Self.goodReceipt(first + 2)].joined(separator: "\n") + "\n")
                expectations.append((name, path, reason, false, ["\(first)", "\(first + 2)"]))
            case .salesRow(let columns):
                var row = Self.salesColumns(sku: "sku\(first + 1)")
                for (column, value) in columns { row[column] = value }
                let path = try test.write(
                    "sales/S_D_\(80_000_000 + index)_20140302.txt",
                    [
                        ReportHeaders.sales20, Self.salesColumns(sku: "sku\(first)").joined(separator: "\t"),
                        row.joined(separator: "\t"), Self.salesColumns(sku: "sku\(first + 2)").joined(separator: "\t"),
                    ].joined(separator: "\n") + "\n")
                expectations.append((name, path, reason, true, ["sku\(first)", "sku\(first + 2)"]))
            }
        }
        for (kind, folder) in [("receipts", receipts), ("sales", sales)] {
            let outcome = try BinaryUnderTest.run(
                ["ingest", kind, "--database-url", test.conninfo, folder.path], timeout: 600)
            #expect(outcome.status == 0, "ingest \(kind): \(outcome.status) \(outcome.stderr)")
        }
        for expected in expectations {
            let quarantined = try test.connection.query(
                "SELECT line, reason_code FROM quarantine WHERE path = $1 ORDER BY line", [expected.path]
            ).rows.map { "\($0[0] ?? "") \($0[1] ?? "")" }
            let badLine = expected.isSales ? 3 : 2
            #expect(quarantined == ["\(badLine) \(expected.reason)"], "\(expected.name): \(quarantined)")
            let stored =
                expected.isSales
                ? "SELECT count(*) FROM sales_report_row WHERE vendor_identifier = ANY ($1::text[])"
                : "SELECT count(*) FROM purchase WHERE transaction_id = ANY ($1::text[])"
            let count = try test.connection.query(stored, [Self.arrayLiteral(expected.neighbours)]).int(0, 0)
            #expect(count == 2, "\(expected.name): the neighbours were not both stored (\(count ?? -1))")
        }
    }

    // MARK: Records

    /// A good receipt of transaction `id`, as nested JSON values the bad records edit.
    static func receiptObject(_ id: Int) -> [String: Any] {
        [
            "application_username": "user\(id)@example.com", "store_account": "store-\(id)",
            "recorded_at": "2014-03-02T10:00:00Z",
            "response": [
                "status": 0, "environment": "Production",
                "receipt": [
                    "bundle_id": "com.example.game", "receipt_creation_date_ms": "1393754400000",
                    "in_app": [
                        [
                            "quantity": "1", "product_id": "coins", "transaction_id": "\(id)",
                            "original_transaction_id": "\(id)", "purchase_date_ms": "1393754400000",
                        ]
                    ],
                ],
                "pending_renewal_info": [
                    ["original_transaction_id": "\(id)", "product_id": "coins", "auto_renew_status": "1"]
                ],
            ] as [String: Any],
        ]
    }

    static func goodReceipt(_ id: Int) -> String {
        Self.json(receiptObject(id))
    }

    static func json(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The bad record's line.
    static func line(_ bad: Bad, id: Int) throws -> String {
        switch bad {
        case .receipt(let edits):
            var object: Any = receiptObject(id)
            for (path, value) in edits {
                // A placeholder replaced by the value's JSON text after serialising: numbers past 64 bits and
                // strings stay exactly as written.
                object = Self.setting(
                    object, path.split(separator: ".").map(String.init), to: value.map { _ in "@@\(path)@@" })
            }
            var text = json(object)
            for (path, value) in edits {
                if let value { text = text.replacingOccurrences(of: "\"@@\(path)@@\"", with: value) }
            }
            return text
        case .signed(let members):
            let transaction = SignedTestData.transaction(
                "\(id)", product: "gold", at: "2025-03-02T18:00:00Z")
            var payload = transaction.text
            // Members set as raw JSON text, so values no JSON library keeps (past 64 bits) reach the parser as is.
            for (member, value) in members where member != "signedDate" {
                payload = String(payload.dropLast()) + ", \"\(member)\": \(value)}"
            }
            let signedDate = members["signedDate"] ?? "1740938460000"
            payload = String(payload.dropLast()) + ", \"signedDate\": \(signedDate)}"
            let jws = [#"{"alg":"ES256","x5c":[]}"#, payload, "signature"].map(Self.base64URL).joined(separator: ".")
            return SignedTestData.envelope("user\(id)@example.com", [jws])
        case .salesRow:
            return ""
        }
    }

    /// `object` with the member at `path` (object keys, array indexes as digits) set to `value` or removed (nil).
    static func setting(_ object: Any, _ path: [String], to value: String?) -> Any {
        guard let key = path.first else { return value as Any }
        if var array = object as? [Any], let index = Int(key) {
            array[index] = setting(array[index], Array(path.dropFirst()), to: value)
            return array
        }
        var dictionary = object as? [String: Any] ?? [:]
        if path.count == 1 {
            dictionary[key] = value
        } else {
            dictionary[key] = setting(dictionary[key] ?? [String: Any](), Array(path.dropFirst()), to: value)
        }
        return dictionary
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A good 20-column Sales and Trends row for `sku`.
    static func salesColumns(sku: String) -> [String] {
        [
            "APPLE", "US", sku, "Example Inc.", "Title", " ", "IA1", "1", "0.70", "03/02/2014", "03/02/2014", "USD",
            "US", "USD", "123456789", "0.99", " ", "GAME1", " ", " ",
        ]
    }
}
