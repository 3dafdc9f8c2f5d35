import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

@testable import SyntheticData

/// Through the binary: each signed type is judged at the instant Apple documents as its signing date (an app
/// transaction at its receiptCreationDate), and only what Apple calls Production is ever a sale.
struct SigningDateAndEnvironmentTests {
    static let day: Int64 = 86_400_000

    static func run(_ arguments: [String]) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments, timeout: 180)
        #expect(!outcome.timedOut, "iap-audit \(arguments.prefix(2).joined(separator: " ")) hung")
        return outcome
    }

    /// An AppTransaction payload as Apple signs it: no signedDate; signed at its receiptCreationDate.
    static func appTransaction(_ id: String, createdAt: Int64?) -> SignedJSON {
        var members: [(String, SignedJSON)] = [
            ("receiptType", .string("Production")), ("appAppleId", .integer(333)),
            ("bundleId", .string("com.example.sk2")), ("applicationVersion", .string("7")),
            ("originalApplicationVersion", .string("1")), ("originalPurchaseDate", .integer(SignedTestData.start)),
            ("appTransactionId", .string(id)),
        ]
        if let createdAt {
            members += [("receiptCreationDate", .integer(createdAt)), ("requestDate", .integer(createdAt))]
        }
        return .object(members)
    }

    static func envelope(_ username: String, _ member: String, _ jws: String) -> String {
        SignedJSON.object([("application_username", .string(username)), (member, .string(jws))]).text
    }

    @Test func anAppTransactionIsJudgedAtItsReceiptCreationDateAndNoDateIsNoForgery() throws {
        let test = try TestWorkspace()
        let data = try SignedTestData()
        let start = SignedTestData.start
        // The retired leaf expired five days after start: an archive audited today holds records it signed before.
        let beforeExpiry = try data.chain.sign(
            Self.appTransaction("704000000000000001", createdAt: start + 2 * Self.day), by: data.chain.retired)
        let afterExpiry = try data.chain.sign(
            Self.appTransaction("704000000000000002", createdAt: start + 10 * Self.day), by: data.chain.retired)
        let undated = try data.chain.sign(
            Self.appTransaction("704000000000000003", createdAt: nil), by: data.chain.current)
        try test.write(
            "receipts/app.jsonl",
            [
                Self.envelope("ann@example.com", "app_transaction", beforeExpiry),
                Self.envelope("bob@example.com", "app_transaction", afterExpiry),
                Self.envelope("cat@example.com", "app_transaction", undated),
            ].joined(separator: "\n") + "\n")
        let ingest = try Self.run([
            "ingest", "receipts", "--database-url", test.conninfo, "--trusted-root", data.rootPath,
            test.directory.appendingPathComponent("receipts").path,
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        let detect = try Self.run(["detect", "--database-url", test.conninfo])
        #expect(detect.status == 0, "\(detect.stderr)")

        let outcomes = try test.connection.query(
            "SELECT app_transaction_id, outcome, signed_date IS NOT NULL FROM signed_object ORDER BY app_transaction_id"
        )
        #expect(
            outcomes.rows.map { $0.compactMap { $0 } } == [
                ["704000000000000001", "verified", "t"], ["704000000000000002", "expired-at-signed-date", "t"],
                ["704000000000000003", "no-signing-date", "f"],
            ])
        // Only the one signed after its leaf expired is flagged; the honest and the undated customers are not.
        let flagged = try test.connection.query(
            """
            SELECT o.app_transaction_id FROM flag f JOIN signed_object o ON o.receipt_id::text = f.subject_key
            WHERE f.rule = 'forged-signature'
            """)
        #expect(flagged.rows.map { $0[0] ?? "" } == ["704000000000000002"])
    }

    @Test func aVerifyReceiptAnswerFromATestEnvironmentIsKeptAndNeverASale() throws {
        let test = try TestWorkspace()
        func answer(_ id: String, environment: String?, receiptType: String = "Production") -> String {
            let field = environment.map { "\"environment\": \($0), " } ?? ""
            return #"{"application_username": "dev@example.com", "response": {"status": 0, "# + field
                + #""receipt": {"receipt_type": "\#(receiptType)", "bundle_id": "com.example.game", "in_app": [{"#
                + #""quantity": "1", "product_id": "coins", "transaction_id": "\#(id)", "#
                + #""original_transaction_id": "\#(id)", "purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}"#
        }
        try test.write(
            "receipts/answers.jsonl",
            [
                answer("1001", environment: #""Production""#), answer("1002", environment: #""Xcode""#),
                answer("1003", environment: #""LocalTesting""#), answer("1004", environment: #""""#),
                answer("1005", environment: "7"), answer("1006", environment: #""Production""#, receiptType: "Xcode"),
                answer("1007", environment: nil),
            ].joined(separator: "\n") + "\n")
        try test.write(
            "sales/S_D_80000001_20140302.txt",
            SalesTestData.header20 + "\n"
                + SalesTestData.row20(
                    sku: "coins", type: "IA1", units: 2, begin: "03/02/2014", price: "0.99", parent: "GAME1") + "\n")
        let run = try Self.run([
            "run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("receipts").path, "--sales",
            test.directory.appendingPathComponent("sales").path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        // Every answer is kept, marked for what it says; only Production (and iOS 6's unmarked production) is sold.
        let receipts = try test.connection.query(
            "SELECT coalesce(environment, '(none)'), receipt_type, is_sandbox FROM receipt ORDER BY line")
        #expect(
            receipts.rows.map { $0.compactMap { $0 }.joined(separator: " ") } == [
                "Production Production f", "Xcode Production t", "LocalTesting Production t", " Production t",
                "7 Production t", "Production Xcode t", "(none) Production f",
            ])
        #expect(
            try test.connection.query("SELECT transaction_id FROM purchase ORDER BY transaction_id").rows.map {
                $0[0] ?? ""
            } == ["1001", "1007"])
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(try test.count("SELECT coalesce(sum(recorded_units), 0)::int FROM reconciliation_line") == 2)
    }

    @Test func aVerifiedSignedTransactionOfATestEnvironmentIsKeptAsVerifiedAndNeverAPurchase() throws {
        let test = try TestWorkspace()
        let data = try SignedTestData()
        typealias T = SignedTestData
        let records = try ["Production", "Xcode", "LocalTesting", "sandbox", "Sandbox"].enumerated().map {
            index, environment in
            T.envelope(
                "tess@example.com",
                [
                    try data.jws(
                        T.transaction(
                            "300000000\(index)", product: "gold", at: "2025-03-02T18:0\(index):00Z", price: 990,
                            environment: environment))
                ])
        }
        try test.write("receipts/signed.jsonl", records.joined(separator: "\n") + "\n")
        let ingest = try Self.run([
            "ingest", "receipts", "--database-url", test.conninfo, "--trusted-root", data.rootPath,
            test.directory.appendingPathComponent("receipts").path,
        ])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(try test.count("SELECT count(*) FROM signed_object WHERE outcome = 'verified'") == 5)
        #expect(
            try test.connection.query("SELECT environment, transaction_id FROM purchase ORDER BY 2").rows.map {
                $0.compactMap { $0 }.joined(separator: " ")
            } == ["Production 3000000000", "Sandbox 3000000004"])
    }
}
