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
    static func copy(_ transactionID: String, product: String = "coins", expires: Int? = nil) -> String {
        var fields = [
            #""transaction_id": "\#(transactionID)""#, #""original_transaction_id": "\#(transactionID)""#,
            #""product_id": "\#(product)""#, #""quantity": "1""#, #""purchase_date_ms": "1393754400000""#,
        ]
        if let expires { fields.append(#""expires_date_ms": "\#(expires)""#) }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func record(_ user: String, _ copies: [String]) -> String {
        #"{"application_username": "\#(user)", "response": {"status": 0, "environment": "Production", "#
            + #""receipt": {"bundle_id": "com.example.game", "in_app": [\#(copies.joined(separator: ", "))]}}}"#
    }

    static let first = record("carol@example.com", [copy("1"), copy("2")])
    /// Disagrees with `first` on transaction 1's product: a conflict.
    static let disagreeing = record("dave@example.com", [copy("1", product: "gems"), copy("3")])
    /// Gives transaction 3 the expiry its first copy lacked.
    static let expiring = record("erin@example.com", [copy("3", expires: 1_396_432_800_000), copy("4")])
    /// Disagrees with `first` on transaction 2's product.
    static let disagreeingLater = record("frank@example.com", [copy("2", product: "gems")])

    /// `first` again later in its own file and in the next one, and `disagreeing` again in the next one: each
    /// stored once. Each file has one new conflict.
    static let files = [
        ("a.jsonl", [first, disagreeing, first]),
        ("b.jsonl", [first, expiring, disagreeing, disagreeingLater]),
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

        // The data reached every part of both statements: the repeats dropped, the conflicts recorded, the expiry
        // filled.
        #expect(plainSummary.alreadyStored == 3)
        #expect(try plain.count("SELECT count(*) FROM purchase_conflict") == 2)
        #expect(
            try plain.count("SELECT count(*) FROM purchase WHERE transaction_id = '3' AND expires_date IS NOT NULL")
                == 1)
    }

    @Test func aQueryWithoutACitusFormRunsTheSameTextOnBoth() throws {
        #expect(try SQLResources.query("receipt_merge", on: .citus) == SQLResources.query("receipt_merge"))
        #expect(try SQLResources.query("receipt_dedupe", on: .citus) != SQLResources.query("receipt_dedupe"))
    }

    @Test func everyCitusFormHasItsPlainForm() {
        let names = Set(EmbeddedResources.queries.map(\.name))
        let citusForms = names.filter { $0.hasSuffix(".citus.sql") }
        #expect(!citusForms.isEmpty)
        for form in citusForms {
            #expect(names.contains(String(form.dropLast(".citus.sql".count)) + ".sql"), "\(form) has no plain form")
        }
    }
}
