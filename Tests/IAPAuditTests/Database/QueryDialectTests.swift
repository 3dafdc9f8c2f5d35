import AppStoreFormats
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// The statements Citus runs in another form (`<name>.citus.sql`, docs/scale.md) store what the plain forms store.
/// Both forms run here, on plain PostgreSQL, over files with repeated records, disagreeing copies and late expiries.
struct QueryDialectTests {
    /// One transaction copy; `expires` adds an expiry (ms).
    static func copy(
        _ transactionID: String, product: String = "coins", expires: Int? = nil, cancelled: Int? = nil
    ) -> String {
        var fields = [
            #""transaction_id": "\#(transactionID)""#, #""original_transaction_id": "\#(transactionID)""#,
            #""product_id": "\#(product)""#, #""quantity": "1""#, #""purchase_date_ms": "1393754400000""#,
        ]
        if let expires { fields.append(#""expires_date_ms": "\#(expires)""#) }
        if let cancelled { fields.append(#""cancellation_date_ms": "\#(cancelled)""#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func record(_ user: String, _ copies: [String], requested: Int = 1_393_754_400_000) -> String {
        #"{"application_username": "\#(user)", "response": {"status": 0, "environment": "Production", "#
            + #""receipt": {"bundle_id": "com.example.game", "request_date_ms": "\#(requested)", "#
            + #""in_app": [\#(copies.joined(separator: ", "))]}}}"#
    }

    static let first = record("carol@example.com", [copy("1"), copy("2")])
    /// Disagrees with `first` on transaction 1's product: a conflict.
    static let disagreeing = record("dave@example.com", [copy("1", product: "gems"), copy("3")])
    /// Gives transaction 3 the expiry its first copy lacked.
    static let expiring = record("erin@example.com", [copy("3", expires: 1_396_432_800_000), copy("4")])
    /// Disagrees with `first` on transaction 2's product.
    static let disagreeingLater = record("frank@example.com", [copy("2", product: "gems")])

    /// Transaction 5 bought, refunded a day later and the refund reversed a day after that (answers by request date).
    static let bought = record("gina@example.com", [copy("5")], requested: 1_393_840_800_000)
    static let refunded = record(
        "gina@example.com", [copy("5", cancelled: 1_393_900_000_000)], requested: 1_393_927_200_000)
    static let reversed = record("gina@example.com", [copy("5"), copy("6")], requested: 1_394_013_600_000)
    /// Transaction 7: bought in the first file (settled for the run), refunded and the refund reversed in the second.
    static let bought7 = record("hal@example.com", [copy("7")], requested: 1_393_840_800_000)
    static let refunded7 = record(
        "hal@example.com", [copy("7", cancelled: 1_393_900_000_000)], requested: 1_393_927_200_000)
    static let reversed7 = record("hal@example.com", [copy("7")], requested: 1_394_013_600_000)

    /// `first` again later in its own file and in the next one, and `disagreeing` again in the next one: each
    /// stored once. Each file has one new conflict. Transaction 5's copies arrive out of order.
    static let files = [
        ("a.jsonl", [first, disagreeing, first, reversed, bought7]),
        ("b.jsonl", [first, expiring, disagreeing, disagreeingLater, refunded, bought, refunded7, reversed7]),
    ]

    func ingest(_ dialect: QueryDialect) throws -> (TestWorkspace, IngestSummary) {
        let test = try TestWorkspace()
        for (name, records) in Self.files {
            try test.write("receipts/" + name, records.joined(separator: "\n") + "\n")
        }
        var ingest = ReceiptIngest(
            connection: test.connection, hasher: AccountKeyHasher(pepper: nil), runID: nil,
            logger: TestPostgres.logger)
        ingest.queryDialect = dialect
        let summary = try ingest.ingest(paths: [test.directory.appendingPathComponent("receipts").path])
        return (test, summary)
    }

    @Test func citusFormsOfTheIngestStatementsStoreWhatThePlainFormsStore() throws {
        let (plain, plainSummary) = try ingest(.postgres)
        let (citus, citusSummary) = try ingest(.citus)
        #expect(try citus.canonicalContents() == plain.canonicalContents())
        let filled = "SELECT transaction_id, expires_date::text FROM purchase ORDER BY 1"
        #expect(try citus.connection.query(filled).rows == plain.connection.query(filled).rows)
        #expect(citusSummary.alreadyStored == plainSummary.alreadyStored)
        let state =
            "SELECT transaction_id, receipt_id::text, signed_at::text, cancellation_date::text FROM purchase_state "
            + "ORDER BY 1, 2"
        #expect(try citus.connection.query(state).rows == plain.connection.query(state).rows)

        // The data reached every part of both statements: the repeats dropped, the conflicts recorded, the expiry
        // filled.
        #expect(plainSummary.alreadyStored == 3)
        #expect(try plain.count("SELECT count(*) FROM purchase_conflict") == 2)
        #expect(
            try plain.count("SELECT count(*) FROM purchase WHERE transaction_id = '3' AND expires_date IS NOT NULL")
                == 1)
        // Transaction 5's refund, said after the reversal was stored, is older than it: the reversal stands.
        #expect(try plain.count("SELECT count(*) FROM purchase_state WHERE transaction_id = '5'") == 3)
        #expect(
            try plain.count(
                "SELECT count(*) FROM purchase WHERE transaction_id IN ('5', '7') AND cancellation_date IS NULL") == 2)
        // Transaction 7's reversal repeats the copy the run had settled on, but follows a refund in its file.
        #expect(try plain.count("SELECT count(*) FROM purchase_state WHERE transaction_id = '7'") == 3)
    }

    @Test func aQueryWithoutACitusFormRunsTheSameTextOnBoth() {
        #expect(SQLQuery.receiptDropDuplicates.text(on: .citus) == SQLQuery.receiptDropDuplicates.text)
        #expect(SQLQuery.receiptDedupe.text(on: .citus) != SQLQuery.receiptDedupe.text)
    }

    /// A `.citus.sql` file without its plain form fails the build (embed-resources); the forms there are attached.
    @Test func theCitusFormsAreAttachedToTheirPlainForms() {
        let withForms = SQLQuery.all.filter { $0.citusText != nil }.map(\.name)
        #expect(withForms == ["receipt_compare_copies", "receipt_dedupe", "receipt_merge"])
    }
}
