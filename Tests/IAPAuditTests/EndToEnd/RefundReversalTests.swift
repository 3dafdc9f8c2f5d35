import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

@testable import SyntheticData

/// Through the binary: what Apple signed last is what stands. A refund Apple reverses stops counting, whatever order
/// the files arrive in; the transaction's history keeps both; declined refund requests are evidence of their own;
/// open consumption requests get a body to review. March 2025: Pacific days run 08:00–08:00 UTC until 03-09.
@Suite(.serialized)
struct RefundReversalTests {
    typealias T = SignedTestData

    /// The three deliveries, in the order they are ingested, and the directory they are in.
    struct Deliveries {
        var first: String
        var second: String
        var third: String
    }

    /// erin buys gold three times on 03-02. 2000000101 is refunded on 03-05 and the refund reversed on 03-12, its
    /// copies arriving in order; 2000000102 the same, its copies arriving backwards (the reversal first, the purchase
    /// last); 2000000103's refund stands; 2000000108 is a subscription whose renewal she turned off and which expired.
    /// dora asked for three refunds Apple declined, and one that is still open.
    /// A forged copy of 2000000101 gives that transaction a page on the site.
    static func write(_ test: TestWorkspace, _ data: SignedTestData) throws -> Deliveries {
        func purchase(_ id: String, minute: Int) throws -> String {
            try data.jws(T.transaction(id, product: "gold", at: "2025-03-02T18:0\(minute):00Z", price: 990))
        }
        func refunded(_ id: String, minute: Int) throws -> String {
            try data.jws(
                T.transaction(
                    id, product: "gold", at: "2025-03-02T18:0\(minute):00Z", price: 990,
                    extra: [
                        ("revocationDate", .integer(T.milliseconds("2025-03-05T15:00:00Z"))),
                        ("revocationReason", .integer(0)), ("revocationType", .string("REFUND_FULL")),
                    ]),
                signedAt: T.milliseconds("2025-03-05T15:01:00Z"))
        }
        func reversed(_ id: String, minute: Int) throws -> String {
            try data.jws(
                T.transaction(id, product: "gold", at: "2025-03-02T18:0\(minute):00Z", price: 990),
                signedAt: T.milliseconds("2025-03-12T10:00:00Z"))
        }
        func notice(
            _ jws: String, _ type: String, _ uuid: Int, at time: String, subtype: String? = nil
        ) throws -> String {
            try data.notification(
                jws, uuid: "6f1c2a52-0000-4000-8000-\(String(format: "%012d", uuid))", at: time, type: type,
                subtype: subtype)
        }
        // erin's monthly subscription, its renewal turned off, then expired.
        let plus = try data.jws(
            T.transaction(
                "2000000108", product: "plus", type: "Auto-Renewable Subscription", at: "2025-03-03T18:00:00Z",
                price: 2990, extra: [("expiresDate", .integer(T.milliseconds("2025-04-03T18:00:00Z")))]))
        let forged = try data.jws(
            T.transaction("2000000101", product: "gold", at: "2025-03-02T18:01:00Z", quantity: 50, price: 990),
            by: data.chain.impostor)
        let dora = try (4...7).map { try purchase("200000010\($0)", minute: $0) }
        let first = [
            T.envelope("erin@example.com", [try purchase("2000000101", minute: 1)]),
            T.envelope("erin@example.com", [try purchase("2000000103", minute: 3)]),
            try notice(try reversed("2000000102", minute: 2), "REFUND_REVERSED", 1, at: "2025-03-12T10:00:00Z"),
            T.envelope("dora@example.com", dora), T.envelope("mallory@example.com", [forged]),
        ]
        let second =
            try [
                notice(try refunded("2000000101", minute: 1), "REFUND", 2, at: "2025-03-05T15:01:00Z"),
                notice(try refunded("2000000102", minute: 2), "REFUND", 3, at: "2025-03-05T15:01:00Z"),
                notice(try refunded("2000000103", minute: 3), "REFUND", 4, at: "2025-03-05T15:01:00Z"),
            ]
            + (0..<3).map { index in
                try notice(dora[index], "REFUND_DECLINED", 10 + index, at: "2025-03-0\(6 + index)T12:00:00Z")
            }
        let third = [
            T.envelope("erin@example.com", [plus]),
            try notice(
                plus, "DID_CHANGE_RENEWAL_STATUS", 30, at: "2025-03-10T08:00:00Z", subtype: "AUTO_RENEW_DISABLED"),
            try notice(plus, "EXPIRED", 31, at: "2025-04-03T18:00:05Z", subtype: "VOLUNTARY"),
            try notice(try reversed("2000000101", minute: 1), "REFUND_REVERSED", 5, at: "2025-03-12T10:00:00Z"),
            T.envelope("erin@example.com", [try purchase("2000000102", minute: 2)]),
            try notice(dora[3], "CONSUMPTION_REQUEST", 20, at: "2025-03-20T09:00:00Z"),
        ]
        return Deliveries(
            first: try test.write("receipts/1.jsonl", first.joined(separator: "\n") + "\n"),
            second: try test.write("receipts/2.jsonl", second.joined(separator: "\n") + "\n"),
            third: try test.write("receipts/3.jsonl", third.joined(separator: "\n") + "\n"))
    }

    /// Apple's daily reports: seven gold sold on 03-02, one refunded on 03-05 (Pacific).
    static func reports(_ test: TestWorkspace) throws -> String {
        for (day, units, price) in [("02", 7, "0.99"), ("05", -1, "-0.99")] {
            _ = try test.write(
                "sales/S_D_80000001_202503\(day).txt",
                SalesTestData.header20 + "\n"
                    + SalesTestData.row20(
                        sku: "gold", type: "IA1", units: units, begin: "03/\(day)/2025", price: price, parent: "SK2")
                    + "\n")
        }
        return test.directory.appendingPathComponent("sales").path
    }

    static func run(_ arguments: [String], _ test: TestWorkspace) throws {
        let outcome = try BinaryUnderTest.run(arguments + ["--database-url", test.conninfo], timeout: 180)
        #expect(!outcome.timedOut && outcome.status == 0, "\(arguments.prefix(2)): \(outcome.stderr)")
    }

    /// Recorded units of gold on a day's reconciliation line.
    static func recorded(_ test: TestWorkspace, on day: String) throws -> Int {
        try test.count(
            "SELECT coalesce(sum(recorded_units), 0)::int FROM reconciliation_line WHERE period_begin = '\(day)'")
    }

    @Test func aReversedRefundStopsCountingAndItsHistoryStaysWhateverTheFileOrder() throws {
        let test = try TestWorkspace()
        let data = try SignedTestData()
        let files = try Self.write(test, data)
        let catalog = try test.write("catalog.json", T.catalog)
        try Self.run(["catalog", "import", catalog], test)
        try Self.run(["ingest", "sales", try Self.reports(test)], test)
        let root = ["--trusted-root", data.rootPath]
        try Self.run(["ingest", "receipts"] + root + [files.first], test)
        try Self.run(["ingest", "receipts"] + root + [files.second], test)
        try Self.run(["reconcile"], test)
        // 2000000102's reversal (03-12) arrived before its refund (03-05): the older copy changed nothing.
        #expect(try Self.recorded(test, on: "2025-03-05") == -2)
        try Self.run(["ingest", "receipts"] + root + [files.third], test)
        try Self.run(["reconcile"], test)
        // The incremental reconcile recounts the day of the refund that was reversed.
        #expect(try Self.recorded(test, on: "2025-03-05") == -1)
        #expect(try Self.recorded(test, on: "2025-03-02") == 7)

        let refunded = try test.connection.query(
            "SELECT transaction_id FROM purchase WHERE cancellation_date IS NOT NULL ORDER BY 1")
        #expect(refunded.rows.map { $0[0] ?? "" } == ["2000000103"])
        let history = try test.connection.query(
            """
            SELECT transaction_id, string_agg(change || ' ' || to_char(signed_at AT TIME ZONE 'UTC', 'MM-DD'), ', '
                ORDER BY signed_at)
            FROM purchase_state_change
            WHERE transaction_id IN ('2000000101', '2000000102', '2000000103', '2000000108')
            GROUP BY transaction_id ORDER BY transaction_id
            """)
        #expect(
            history.rows.map { $0.compactMap { $0 }.joined(separator: ": ") } == [
                "2000000101: refunded 03-05, reversed 03-12", "2000000102: refunded 03-05, reversed 03-12",
                "2000000103: refunded 03-05", "2000000108: renewal-off 03-10, expired 04-03",
            ])

        // refund-abuse counts the one refund that stands (below warning_refunds); dora's refused requests flag her.
        try Self.run(["detect"], test)
        let flags = try test.connection.query(
            "SELECT subject_key, evidence->'refunds', jsonb_array_length(evidence->'declined_requests') FROM flag "
                + "WHERE rule = 'refund-abuse'")
        let dora = AppleUsernameHash.hash("dora@example.com")
        #expect(flags.rows.map { $0.compactMap { $0 } } == [[dora, "0", "4"]])

        // The transaction's page says what happened to it.
        let out = test.directory.appendingPathComponent("out").path
        try Self.run(["report", "--all", "--out", out], test)
        let page = try String(contentsOfFile: out + "/subjects/transaction-2000000101.html", encoding: .utf8)
        #expect(page.contains("refunded 2025-03-05, reversed 2025-03-12"))
    }

    @Test func anOpenConsumptionRequestGetsABodyOfApplesDocumentedTypes() throws {
        let test = try TestWorkspace()
        let data = try SignedTestData()
        let files = try Self.write(test, data)
        try Self.run(
            ["ingest", "receipts", "--trusted-root", data.rootPath, files.first, files.second, files.third], test)
        // The accounts' histories are detect's (account_purchase), as in every run.
        try Self.run(["detect"], test)
        let outcome = try BinaryUnderTest.run(
            ["report", "consumption-requests", "--format", "json", "--database-url", test.conninfo], timeout: 120)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [[String: Any]], "\(outcome.stdout)")
        // Only the open request: the declined ones were answered.
        #expect(rows.map { $0["transaction_id"] as? String } == ["2000000107"])
        let row = try #require(rows.first)
        #expect(row["requested_utc"] as? String == "2025-03-20 09:00:00")
        #expect(row["deadline_utc"] as? String == "2025-03-20 21:00:00")
        let body = try #require(row["request_body"] as? [String: Any])
        // Apple's ConsumptionRequest: integers within their documented ranges, the token a UUID or empty.
        let ranges: [String: ClosedRange<Int>] = [
            "accountTenure": 0...7, "deliveryStatus": 0...5, "lifetimeDollarsPurchased": 0...7,
            "lifetimeDollarsRefunded": 0...7, "platform": 0...2,
        ]
        for (field, range) in ranges {
            let value = try #require(body[field] as? Int, "\(field) missing from \(body)")
            #expect(range.contains(value), "\(field) = \(value)")
        }
        // First seen on 03-02, asked on 03-20: 10 to 30 days is bucket 3.
        #expect(body["accountTenure"] as? Int == 3)
        #expect(body["appAccountToken"] as? String == "")
        // dora bought four gold at 0.99 USD, nothing refunded: 3.96 USD is bucket 2, nothing is bucket 1.
        #expect(body["lifetimeDollarsPurchased"] as? Int == 2)
        #expect(body["lifetimeDollarsRefunded"] as? Int == 1)
        let toDecide = (row["to_decide"] as? String ?? "").components(separatedBy: ", ")
        #expect(Set(toDecide).isSuperset(of: ["customerConsented", "playTime"]))
        #expect(Set(toDecide).isDisjoint(with: Set(body.keys)))
    }
}
