import AppStoreFormats
import AppStoreSignatures
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit
@testable import SyntheticData

/// A transaction first stored from a verifyReceipt copy takes what only StoreKit 2 says (signedDate, price,
/// storefront…) from its first signed copy, in a later file or later in the same file; one first stored from a
/// signed copy keeps what that copy said, and a signed copy of another product fills nothing.
struct SignedFieldsFillTests {
    typealias T = SignedTestData

    /// A verifyReceipt answer (no signed fields) holding transaction `id` of `product`, bought at `time`.
    static func verifyReceipt(_ id: String, product: String, at time: String) -> String {
        #"{"application_username": "erin@example.com", "response": {"status": 0, "environment": "Production", "#
            + #""receipt": {"bundle_id": "com.example.sk2", "request_date_ms": "\#(T.milliseconds(time) + 60_000)", "#
            + #""in_app": [{"transaction_id": "\#(id)", "original_transaction_id": "\#(id)", "#
            + #""product_id": "\#(product)", "quantity": "1", "purchase_date_ms": "\#(T.milliseconds(time))"}]}}}"#
    }

    /// Each transaction's signed date (whether it has one), price and storefront as stored.
    static func stored(_ test: TestWorkspace) throws -> [String] {
        let rows = try test.connection.query(
            """
            SELECT transaction_id || ' ' || (signed_date IS NOT NULL) || ' ' || coalesce(price::text, '-') || ' '
                || coalesce(storefront, '-')
            FROM purchase ORDER BY transaction_id
            """)
        return (0..<rows.rowCount).compactMap { rows.string($0, 0) }
    }

    /// Through the loader on each dialect: the Citus forms (receipt_merge.citus.sql fills the fields; its compare
    /// form has no lookup to find them in) store what the plain forms store. Both run here on plain PostgreSQL.
    @Test(arguments: [QueryDialect.postgres, .citus])
    func aTransactionStoredFromVerifyReceiptTakesItsFirstSignedCopysFields(on dialect: QueryDialect) throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        var trust = TrustStore.apple
        try trust.addRoots(contentsOfFile: data.rootPath)
        var ingest = ReceiptIngest(
            connection: test.connection, hasher: AccountKeyHasher(pepper: nil),
            verifier: SignatureVerifier(trustStore: trust), runID: nil, logger: TestPostgres.logger)
        ingest.queryDialect = dialect
        let time = "2025-03-02T18:00:00Z"
        func signed(_ id: String, product: String = "gold", price: Int64, storefront: String) throws -> String {
            try data.jws(
                T.transaction(id, product: product, at: time, price: price)
                    .setting("storefront", to: .string(storefront)))
        }
        // 501: verifyReceipt, then two signed copies in the next file (the first one counts); 502: verifyReceipt,
        // then a signed copy of another product; 503: verifyReceipt and a signed copy later in the same file;
        // 504: signed first, a later signed copy changes nothing.
        let first = [
            Self.verifyReceipt("2000000501", product: "gold", at: time),
            Self.verifyReceipt("2000000502", product: "gold", at: time),
            Self.verifyReceipt("2000000503", product: "gold", at: time),
            T.envelope("erin@example.com", [try signed("2000000503", price: 990, storefront: "FRA")]),
            T.envelope("erin@example.com", [try signed("2000000504", price: 990, storefront: "USA")]),
        ]
        let second = [
            T.envelope(
                "erin@example.com",
                [
                    try signed("2000000501", price: 990, storefront: "USA"),
                    try signed("2000000501", price: 1090, storefront: "DEU"),
                ]),
            T.envelope(
                "erin@example.com", [try signed("2000000502", product: "silver", price: 990, storefront: "USA")]),
            T.envelope("erin@example.com", [try signed("2000000504", price: 1090, storefront: "DEU")]),
        ]
        for (name, lines) in [("1.jsonl", first), ("2.jsonl", second)] {
            let summary = try ingest.ingest(
                paths: [try test.write("receipts/\(name)", lines.joined(separator: "\n") + "\n")])
            #expect(summary.quarantined == 0)
        }
        #expect(
            try Self.stored(test) == [
                "2000000501 true 990 USA", "2000000502 false - -", "2000000503 true 990 FRA", "2000000504 true 990 USA",
            ])
    }
}
