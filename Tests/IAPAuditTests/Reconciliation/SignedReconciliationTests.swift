import AppStoreFormats
import Foundation
import IAPAudit
import Postgres
import Testing

@testable import SyntheticData

/// A March 2025 that mixes a legacy receipt with StoreKit 2 records of every shape, reconciled over a real
/// PostgreSQL: verified production signed transactions count as docs/reconciliation.md counts legacy ones, and a
/// line shows the recorded customer amount by currency where every recorded transaction of it carries a price.
/// March 2025 is before the DST change (03-09), so Pacific days run 08:00–08:00 UTC.
struct SignedReconciliationTests {
    struct Line: Equatable, CustomStringConvertible {
        var day: String
        var product: String
        var recorded: Int
        var trials: Int
        var reported: Int
        var status: String
        /// `recorded_customer_amount` as jsonb text, or `NULL`.
        var amount: String
        var description: String { "\(day) \(product) \(recorded)+\(trials)t/\(reported) \(status) \(amount)" }
    }

    /// The records: each comment says what the transaction checks.
    static func receipts(_ data: SignedTestData) throws -> String {
        typealias T = SignedTestData
        // Two gold, 10:00 Pacific on 03-02: delivered as a JWS line, in a V2 notification and in a history page.
        let s1 = try data.jws(
            T.transaction("2000000001", product: "gold", at: "2025-03-02T18:00:00Z", quantity: 2, price: 990))
        // Another currency on the same line.
        let s2 = try data.jws(
            T.transaction("2000000002", product: "gold", at: "2025-03-02T18:05:00Z", price: 1190, currency: "EUR"))
        // A legacy purchase and a signed one of the same product: the line has an unpriced transaction.
        let legacyPro =
            #"{"response": {"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", "#
            + #""bundle_id": "com.example.sk2", "in_app": [{"quantity": "1", "product_id": "pro", "#
            + #""transaction_id": "1000000001", "original_transaction_id": "1000000001", "#
            + #""purchase_date": "2025-03-02 17:00:00 Etc/GMT"}]}}}"#
        let s3 = try data.jws(
            T.transaction("2000000003", product: "pro", type: "Non-Consumable", at: "2025-03-02T19:00:00Z", price: 4990)
        )
        // A billed period refunded (prorated) at 23:30 Pacific on 03-03, which is 03-04 in UTC.
        let s4 = try data.jws(
            T.transaction(
                "2000000004", product: "plus", type: "Auto-Renewable Subscription", at: "2025-03-02T19:00:00Z",
                price: 2990,
                extra: [
                    ("webOrderLineItemId", .string("W1")),
                    ("revocationDate", .integer(T.milliseconds("2025-03-04T07:30:00Z"))),
                    ("revocationReason", .integer(0)), ("revocationType", .string("REFUND_PRORATED")),
                    ("revocationPercentage", .integer(50000)),
                ]))
        // A free trial: counted apart, never as a unit.
        let s5 = try data.jws(
            T.transaction(
                "2000000005", product: "plus", type: "Auto-Renewable Subscription", at: "2025-03-02T19:30:00Z",
                price: 0,
                extra: [
                    ("webOrderLineItemId", .string("W2")), ("offerType", .integer(1)),
                    ("offerDiscountType", .string("FREE_TRIAL")),
                ]))
        // A billed period upgraded away on 03-03: a sale, and its revocation is no refund; the upgrade is a sale.
        let s6 = try data.jws(
            T.transaction(
                "2000000006", product: "plus", type: "Auto-Renewable Subscription", at: "2025-03-02T20:00:00Z",
                price: 2990,
                extra: [
                    ("webOrderLineItemId", .string("W3")), ("isUpgraded", .bool(true)),
                    ("revocationDate", .integer(T.milliseconds("2025-03-03T18:00:00Z"))),
                ]))
        let s7 = try data.jws(
            T.transaction(
                "2000000007", product: "premium", type: "Auto-Renewable Subscription", at: "2025-03-03T18:00:00Z",
                original: "2000000006", price: 3990, extra: [("webOrderLineItemId", .string("W4"))]))
        // Forgeries never count: a new transaction, and a copy of s1 claiming fifty.
        let forged = try data.jws(
            T.transaction("2000000008", product: "gold", at: "2025-03-02T18:10:00Z", quantity: 5, price: 990),
            by: data.chain.impostor)
        let forgedCopy = try data.jws(
            T.transaction("2000000001", product: "gold", at: "2025-03-02T18:00:00Z", quantity: 50, price: 990),
            by: data.chain.impostor)
        // A verified production transaction beside an Xcode-signed one in one envelope: the record is marked
        // sandbox, the verified transaction is still a sale.
        let s9 = try data.jws(T.transaction("2000000009", product: "gold", at: "2025-03-02T18:20:00Z", price: 990))
        let xcode = try data.jws(
            T.transaction("0", product: "gold", at: "2025-03-02T18:20:00Z", price: 990, environment: "Xcode"),
            by: data.chain.xcode)
        // Family-shared: never a sale.
        let shared = try data.jws(
            T.transaction(
                "2000000010", product: "gold", at: "2025-03-02T18:30:00Z", price: 990,
                extra: [("inAppOwnershipType", .string("FAMILY_SHARED"))]))
        return [
            s1, try data.notification(s1, uuid: "6f1c2a52-0000-4000-8000-000000000001", at: "2025-03-02T18:01:00Z"),
            T.historyPage([s1, s2, s3]), legacyPro, T.envelope("erin@example.com", [s4]),
            T.envelope("erin@example.com", [s5, s6, s7]), T.envelope("mallory@example.com", [forged]),
            T.envelope("mallory@example.com", [forgedCopy]), T.envelope("frank@example.com", [s9, xcode]),
            T.envelope("gina@example.com", [shared]),
        ].joined(separator: "\n") + "\n"
    }

    /// Apple's daily reports for 03-02 … 03-04: one more gold, one more pro and one more premium than a correct count
    /// records, the rest agreeing.
    static func reports(_ test: TestWorkspace) throws -> [String] {
        typealias Row = (sku: String, type: String, units: Int, price: String)
        let days: [(String, [Row])] = [
            ("02", [("gold", "IA1", 5, "0.99"), ("pro", "IA1", 3, "4.99"), ("plus", "IAY", 2, "2.99")]),
            ("03", [("plus", "IAY", -1, "-2.99"), ("premium", "IAY", 2, "3.99")]),
            ("04", [("gold", "IA1", 1, "0.99")]),
        ]
        return try days.map { day, rows in
            let lines = rows.map {
                SalesTestData.row20(
                    sku: $0.sku, type: $0.type, units: $0.units, begin: "03/\(day)/2025", price: $0.price,
                    parent: "SK2")
            }
            return try test.write(
                "S_D_80000001_202503\(day).txt",
                ([SalesTestData.header20] + lines).joined(separator: "\n") + "\n")
        }
    }

    static func load(_ test: TestWorkspace, _ data: SignedTestData) throws {
        _ = try test.workspace.importCatalog(
            path: try test.write("catalog.json", SignedTestData.catalog), bundleID: nil)
        let ingest = try test.workspace.ingestReceipts(
            paths: [try test.write("receipts.jsonl", try receipts(data))])
        #expect(ingest.quarantined == 0)
        _ = try test.workspace.ingestSales(paths: try reports(test))
        _ = try test.workspace.reconcile(
            ReconcileOptions(from: CalendarDate("2025-03-02"), to: CalendarDate("2025-03-04")))
    }

    static func lines(_ test: TestWorkspace) throws -> [Line] {
        try test.connection.query(
            """
            SELECT period_begin::text, vendor_identifier, recorded_units, recorded_trials, reported_units, status,
                coalesce(recorded_customer_amount::text, 'NULL')
            FROM reconciliation_line ORDER BY period_begin, vendor_identifier
            """
        ).rows.map {
            Line(
                day: $0[0] ?? "", product: $0[1] ?? "", recorded: Int($0[2] ?? "") ?? -99,
                trials: Int($0[3] ?? "") ?? -99, reported: Int($0[4] ?? "") ?? -99, status: $0[5] ?? "",
                amount: $0[6] ?? "")
        }
    }

    @Test func aMonthMixingLegacyAndSignedPurchasesCountsEachTransactionOnce() throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        try Self.load(test, data)
        #expect(
            try Self.lines(test) == [
                // s1 once (three shapes), s2, s9; no forgery, no family-shared copy. Amounts by currency.
                Line(
                    day: "2025-03-02", product: "gold", recorded: 4, trials: 0, reported: 5, status: "variance",
                    amount: #"{"EUR": 1.19, "USD": 2.97}"#),
                // Two billed periods and a trial; the trial's price is 0, so the line is still priced.
                Line(
                    day: "2025-03-02", product: "plus", recorded: 2, trials: 1, reported: 2, status: "matched",
                    amount: #"{"USD": 5.98}"#),
                // The legacy purchase carries no price: no amount rather than a partial one.
                Line(
                    day: "2025-03-02", product: "pro", recorded: 2, trials: 0, reported: 3, status: "variance",
                    amount: "NULL"),
                // The prorated refund on its Pacific day; the upgraded period's revocation is no refund.
                Line(
                    day: "2025-03-03", product: "plus", recorded: -1, trials: 0, reported: -1, status: "matched",
                    amount: #"{"USD": -2.99}"#),
                Line(
                    day: "2025-03-03", product: "premium", recorded: 1, trials: 0, reported: 2, status: "variance",
                    amount: #"{"USD": 3.99}"#),
                // Nothing recorded: nothing unpriced either, and it comes to nothing.
                Line(
                    day: "2025-03-04", product: "gold", recorded: 0, trials: 0, reported: 1,
                    status: "missing-in-receipts", amount: "{}"),
            ])
    }

    @Test func theReconciliationReportsShowTheRecordedAmountBesideApples() throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        try Self.load(test, data)
        let runner = ReportRunner(connection: test.connection)
        let lines = try runner.run(try ReportRunner.definition(named: "reconciliation"), parameters: [:])
        func column(_ name: String) throws -> Int { try #require(lines.columns.firstIndex { $0.name == name }) }
        let product = try column("vendor_identifier")
        let recorded = try column("recorded_customer_amount")
        let apple = try column("customer_price")
        let currency = try column("currency")
        let difference = try column("customer_amount_difference")
        // One row per currency, the amounts numbers a spreadsheet adds up.
        let begin = try column("period_begin")
        let firstGold = try #require(lines.rows.first { $0[product] == "gold" })
        let gold = lines.rows.filter { $0[product] == "gold" && $0[begin] == firstGold[begin] }
        #expect(gold.map { $0[currency] } == ["EUR", "USD"])
        #expect(gold.map { $0[recorded] } == ["1.19", "2.97"])
        #expect(gold.map { $0[apple] } == [nil, "4.95"])
        // Apple's minus ours, per currency: nothing reported in EUR, 1.98 more than recorded in USD.
        #expect(gold.map { $0[difference] } == ["-1.19", "1.98"])
        #expect(lines.rows.first { $0[product] == "pro" }?[recorded] == .some(nil))
        #expect(lines.rows.first { $0[product] == "pro" }?[difference] == .some(nil))

        let summary = try runner.run(try ReportRunner.definition(named: "reconciliation-summary"), parameters: [:])
        let differing = try #require(summary.columns.firstIndex { $0.name == "differing_recorded_amount" })
        let period = try #require(summary.columns.firstIndex { $0.name == "period" })
        let summaryCurrency = try #require(summary.columns.firstIndex { $0.name == "currency" })
        func differingAmount(_ day: String) throws -> String? {
            let row = try #require(summary.rows.first { $0[period] == day && $0[summaryCurrency] == "USD" })
            return row[differing]
        }
        #expect(try differingAmount("2025-03-03") == "3.99")
        // On 03-02 the differing pro line has no amount: the day's sum is unknown, not gold's alone.
        #expect(try differingAmount("2025-03-02") == nil)
        #expect(Set(summary.rows.map { $0[period] }).count == 3)
    }
}
