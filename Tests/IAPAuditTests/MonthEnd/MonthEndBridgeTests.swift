import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

@testable import AppStoreFormats

/// One fiscal month (March 2025: 2025-03-02 … 2025-03-29) in money, from files ingested as a user ingests them:
/// StoreKit 2 purchases with prices, Apple's daily sales reports, its financial report and Payments summary, and a
/// bank amount. Each planted difference lands under its own cause, the totals chain, nothing is unexplained but the
/// bank's four cents (issue 33).
struct MonthEndBridgeTests {
    typealias T = SignedTestData

    struct Step: Equatable, CustomStringConvertible {
        var order: Int
        var kind: String
        var cause: String?
        var amount: String
        var description: String { "\(order) \(kind) \(cause ?? "-") \(amount)" }
    }

    static func load(_ test: TestWorkspace, _ data: SignedTestData) throws {
        _ = try test.workspace.importCatalog(path: try test.write("catalog.json", T.catalog), bundleID: nil)
        // Recorded: 03-01 (fiscal February), three on 03-03, one on 03-10 Apple never reported, one on 03-12.
        let times = [
            "2025-03-01T18:00:00Z", "2025-03-03T18:00:00Z", "2025-03-03T18:01:00Z", "2025-03-03T18:02:00Z",
            "2025-03-10T18:00:00Z", "2025-03-12T18:00:00Z",
        ]
        let lines = try times.enumerated().map { index, time in
            T.envelope(
                "buyer\(index)@example.com",
                [try data.jws(T.transaction("30000000\(index)", product: "gold", at: time, price: 990))])
        }
        let ingest = try test.workspace.ingestReceipts(
            paths: [try test.write("receipts.jsonl", lines.joined(separator: "\n") + "\n")])
        #expect(ingest.quarantined == 0)
        // Sold: three on 03-03, none on 03-10 (a report without gold), two on 03-12 (one we never recorded).
        var reports: [String] = []
        for (day, units) in [("03", 3), ("10", 0), ("12", 2)] {
            let row = SalesTestData.row20(sku: "gold", units: units, begin: "03/\(day)/2025", parent: "SK2")
            reports.append(
                try test.write(
                    "S_D_80000001_202503\(day).txt",
                    ([SalesTestData.header20] + (units > 0 ? [row] : [])).joined(separator: "\n") + "\n"))
        }
        // Owed: the five sold, a return Sales and Trends put in February, and an app Apple sold.
        let financial = [
            ReportHeaders.financial,
            financialRow("gold", quantity: 5, share: "0.70", extended: "3.50", kind: "S", type: "IA1"),
            financialRow("gold", quantity: -1, share: "0.70", extended: "-0.70", kind: "R", type: "IA1"),
            financialRow("SK2", quantity: 2, share: "1.40", extended: "2.80", kind: "S", type: "1F"),
            "Total_Rows\t3", "Total_Amount\t5.60", "Total_Units\t6",
        ]
        reports.append(try test.write("80000001_0325_US.txt", financial.joined(separator: "\n") + "\n"))
        // Paid: Earned 5.60, an adjustment of -1.00 and 0.56 withheld; 4.04 paid.
        let payments = """
            "iTunes Connect - Payments and Financial Reports\t(March, 2025)",,,,,,,,,,,,
            Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,\
            Exchange Rate,Proceeds,Bank Account Currency,
            Americas (USD),"6","5.60","5.60","0","-1.00","-0.56","4.04","1.00000","4.04","USD",
            ,,,,,,,,,,,,
            ,,,,,,,,,,"4.04" USD,,
            ,,,,,,,,,,Paid to EXAMPLE BANK -****0001,,

            """
        reports.append(try test.write("financial_report.csv", payments))
        let sales = try test.workspace.ingestSales(paths: reports)
        #expect(sales.ingest.quarantined == 0)
        // The 03-10 report has no rows: Apple sold nothing that day.
        #expect(sales.findingsByCode == ["header-only": 1], "\(sales.findingsByCode)")
        _ = try test.workspace.reconcile(ReconcileOptions(from: nil, to: nil))
        _ = try test.workspace.enterBankDeposit(month: "2025-03", amount: "4.00", currency: "USD", note: nil)
    }

    static func financialRow(
        _ vendor: String, quantity: Int, share: String, extended: String, kind: String, type: String
    ) -> String {
        [
            "03/02/2025", "03/29/2025", "", "", vendor, String(quantity), share, extended, "USD", kind, "123",
            "Example Inc.", "Title", "", "", type, "", "US", "", "", kind == "R" ? "-0.99" : "0.99", "USD",
        ].joined(separator: "\t")
    }

    static func bridge(_ test: TestWorkspace) throws -> [Step] {
        try test.connection.query(
            "SELECT step_order, kind, cause, amount::text FROM month_end_bridge(2025, 3) ORDER BY step_order, cause"
        ).rows.map { Step(order: Int($0[0] ?? "") ?? -1, kind: $0[1] ?? "", cause: $0[2], amount: $0[3] ?? "") }
    }

    @Test func everyPlantedDifferenceLandsUnderItsCauseAndTheTotalsChain() throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        try Self.load(test, data)
        #expect(
            try Self.bridge(test) == [
                Step(order: 10, kind: "total", cause: nil, amount: "5.94"),
                Step(order: 20, kind: "cause", cause: "calendar vs fiscal month", amount: "-0.99"),
                Step(order: 30, kind: "total", cause: nil, amount: "4.95"),
                Step(order: 50, kind: "cause", cause: "purchases Apple never reported", amount: "-0.99"),
                Step(order: 50, kind: "cause", cause: "sales never recorded", amount: "0.99"),
                Step(order: 60, kind: "total", cause: nil, amount: "4.95"),
                Step(order: 70, kind: "cause", cause: "taxes and adjustments", amount: "-1.45"),
                Step(order: 80, kind: "total", cause: nil, amount: "3.50"),
                Step(order: 90, kind: "cause", cause: "refunds and reversals", amount: "-0.70"),
                Step(order: 110, kind: "total", cause: nil, amount: "2.80"),
                Step(order: 120, kind: "cause", cause: "other products", amount: "2.80"),
                Step(order: 130, kind: "total", cause: nil, amount: "5.60"),
                Step(order: 160, kind: "cause", cause: "taxes and adjustments", amount: "-1.00"),
                Step(order: 170, kind: "cause", cause: "taxes and adjustments", amount: "-0.56"),
                Step(order: 180, kind: "total", cause: nil, amount: "4.04"),
            ])
    }

    @Test func throughTheBinaryTheBridgeEndsAtTheBankAndOnlyTheBankIsUnexplained() throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        try Self.load(test, data)
        let out = test.directory.appendingPathComponent("out").path
        let outcome = try BinaryUnderTest.run(
            [
                "report", "month-end-bridge", "--param", "month=2025-03", "--format", "csv", "--out", out,
                "--database-url", test.conninfo,
            ], timeout: 120)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let csv = try String(contentsOfFile: out + "/month-end-bridge.csv", encoding: .utf8)
        let rows = csv.split(whereSeparator: \.isNewline).dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        // step_order, kind, step, cause, amount: the last four are Apple's Proceeds, the bank and their difference.
        let closing = rows.filter { Int($0[0]) ?? 0 >= 180 }.map { "\($0[0]) \($0[3]) \($0[4])" }
        #expect(closing == ["180  4.04", "200  4.04", "210 unexplained -0.04", "220  4.00"], "\(csv)")
        #expect(rows.filter { $0[3] == "unexplained" }.count == 1, "\(csv)")
    }

    @Test func theMonthEndTableHasTheFourAmountsAndAMonthWithoutRatesSaysSo() throws {
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        try Self.load(test, data)
        let out = test.directory.appendingPathComponent("out").path
        for month in ["2025-03", "2025-02"] {
            let outcome = try BinaryUnderTest.run(
                [
                    "report", "month-end", "--param", "month=\(month)", "--format", "csv", "--out",
                    out + "/" + month, "--database-url", test.conninfo,
                ], timeout: 120)
            #expect(outcome.status == 0, "\(outcome.stderr)")
        }
        let csv = try String(contentsOfFile: out + "/2025-03/month-end.csv", encoding: .utf8)
        #expect(
            csv.contains(",Americas,USD,4.95,,4.95,3.50,2.80,5.60,5.60,0,-1.00,-0.56,4.04,1.00000,4.04,USD,USD,"),
            "\(csv)")
        let february = try String(contentsOfFile: out + "/2025-02/month-end.csv", encoding: .utf8)
        #expect(february.contains("no Apple exchange rate for USD this month"), "\(february)")
        #expect(february.contains("fiscal dates computed"), "\(february)")
    }

    /// The month's form is checked before any SQL: a usage error (64) naming the parameter and the form, not a
    /// database error from a failed cast.
    @Test(arguments: ["2025-3", "2025-13", "2025-00", "March", "2025-03-01", "25-03"])
    func aWrongMonthIsAUsageErrorWithItsMessage(month: String) throws {
        let test = try TestWorkspace()
        for report in ["month-end", "month-end-bridge"] {
            let outcome = try BinaryUnderTest.run(
                ["report", report, "--param", "month=\(month)", "--format", "csv", "--database-url", test.conninfo],
                timeout: 120)
            #expect(outcome.status == 64, "\(report) \(month): \(outcome.stderr)")
            #expect(
                outcome.stderr.contains("--param month must be a month as YYYY-MM, e.g. 2025-03"),
                "\(report) \(month): \(outcome.stderr)")
        }
    }
}
