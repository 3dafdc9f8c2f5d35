import AppStoreFormats
import Foundation
import IAPAudit
import Postgres
import Testing

/// Reconciliation as docs/reconciliation.md states it, over a hand-built world where each line hits one rule.
struct ReconciliationTests {
    struct Line: Equatable, CustomStringConvertible {
        var day: String
        var product: String
        var app: String
        var recorded: Int
        var reported: Int
        var status: String
        var description: String { "\(day) \(product)@\(app) \(recorded)/\(reported) \(status)" }
    }

    func lines(_ test: TestWorkspace, source: String = "sales") throws -> [Line] {
        try test.connection.query(
            """
            SELECT period_begin::text || CASE WHEN period_end = period_begin THEN '' ELSE '..' || period_end END,
                vendor_identifier, coalesce(app_bundle_id, '-'), recorded_units, reported_units, status
            FROM reconciliation_line WHERE source = $1 ORDER BY period_begin, period_end, vendor_identifier
            """, [source]
        ).rows.map {
            Line(
                day: $0[0] ?? "", product: $0[1] ?? "", app: $0[2] ?? "", recorded: Int($0[3] ?? "") ?? -99,
                reported: Int($0[4] ?? "") ?? -99, status: $0[5] ?? "")
        }
    }

    static let window = ReconcileOptions(from: CalendarDate("2014-03-02"), to: CalendarDate("2014-03-09"))

    @Test func everyRuleGivesItsStatus() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        let summary = try test.workspace.reconcile(Self.window)
        let game = "com.example.game"
        let news = "com.example.news"
        #expect(
            try lines(test) == [
                // Family-shared, sandbox and non-zero-status copies of coins are not sales; 21:00 Pacific is 03-02.
                Line(day: "2014-03-02", product: "coins", app: game, recorded: 3, reported: 3, status: "matched"),
                Line(
                    day: "2014-03-02", product: "com.other.thing", app: game, recorded: 0, reported: 1,
                    status: "unknown-product"),
                Line(day: "2014-03-02", product: "gems", app: game, recorded: 1, reported: 3, status: "variance"),
                // A restored billed period counts once, the trial not at all, the upgraded period as a sale.
                Line(day: "2014-03-02", product: "monthly", app: news, recorded: 2, reported: 2, status: "matched"),
                Line(
                    day: "2014-03-02", product: "pack", app: game, recorded: 1, reported: 1,
                    status: "parent-mismatch"),
                // The restore is not a sale.
                Line(day: "2014-03-02", product: "removeads", app: game, recorded: 2, reported: 2, status: "matched"),
                Line(
                    day: "2014-03-03", product: "levels", app: game, recorded: 0, reported: 1,
                    status: "missing-in-receipts"),
                // The refund on its cancellation day; the IA3 restore row is ignored; the upgrade makes no line.
                Line(day: "2014-03-03", product: "removeads", app: game, recorded: -1, reported: -1, status: "matched"),
                Line(day: "2014-03-04", product: "coins", app: game, recorded: 2, reported: 1, status: "timing"),
                Line(
                    day: "2014-03-04", product: "gems", app: game, recorded: 1, reported: 0,
                    status: "missing-in-report"),
                Line(day: "2014-03-05", product: "coins", app: game, recorded: 0, reported: 1, status: "timing"),
            ])
        // The weekly report covers days every daily report covers too: it is not used at all.
        #expect(summary.periodsByFrequency == ["daily": 8])
        #expect(try test.count("SELECT sum(recorded_trials) FROM reconciliation_line") == 1)
    }

    @Test func carriesApplesMoneyByCurrency() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        _ = try test.workspace.reconcile(Self.window)
        let money = try test.connection.query(
            """
            SELECT customer_price->>'USD', proceeds->>'USD' FROM reconciliation_line
            WHERE vendor_identifier = 'removeads' ORDER BY period_begin
            """
        ).rows
        // Refund rows carry a negative price with negative units: the amount is negative once, not positive.
        #expect(money == [["3.98", "1.40"], ["-1.99", "-0.70"]])
    }

    @Test func usesAWeeklyReportWhenNoDailyReportsCoverItsDays() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test, weeklyOnly: true)
        let summary = try test.workspace.reconcile(Self.window)
        #expect(summary.periodsByFrequency == ["weekly": 1])
        let week = "2014-03-03..2014-03-09"
        let game = "com.example.game"
        #expect(
            try lines(test) == [
                Line(day: week, product: "coins", app: game, recorded: 2, reported: 2, status: "matched"),
                Line(day: week, product: "gems", app: game, recorded: 1, reported: 0, status: "missing-in-report"),
                Line(day: week, product: "levels", app: game, recorded: 0, reported: 1, status: "missing-in-receipts"),
                Line(day: week, product: "removeads", app: game, recorded: -1, reported: -1, status: "matched"),
            ])
    }

    @Test func theTimeZoneDecidesTheDayOfAPurchase() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        var options = Self.window
        options.timeZone = "UTC"
        _ = try test.workspace.reconcile(options)
        let coins = try lines(test).filter { $0.product == "coins" && $0.day <= "2014-03-03" }
        // In UTC the 21:00-Pacific purchase moves to 03-03: a difference offset on the next day.
        #expect(
            coins == [
                Line(
                    day: "2014-03-02", product: "coins", app: "com.example.game", recorded: 2, reported: 3,
                    status: "timing"),
                Line(
                    day: "2014-03-03", product: "coins", app: "com.example.game", recorded: 1, reported: 0,
                    status: "timing"),
            ])
        #expect(throws: IAPAuditError.self) {
            try test.workspace.reconcile(ReconcileOptions(timeZone: "Mars/Olympus_Mons"))
        }
    }

    @Test func rerunningGivesTheSameLinesAndRecordsEachRun() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        let contents = """
            SELECT source, frequency, period_begin, period_end, vendor_identifier, app_bundle_id, parent_identifier,
                recorded_units, recorded_trials, reported_units, difference, status, customer_price::text,
                proceeds::text, time_zone
            FROM reconciliation_line ORDER BY source, period_begin, vendor_identifier, app_bundle_id
            """
        _ = try test.workspace.reconcile(Self.window)
        let first = try test.connection.query(contents).rows
        _ = try test.workspace.reconcile(Self.window)
        #expect(try test.connection.query(contents).rows == first)
        #expect(first.count == 11)
        let runs = try test.connection.query(
            "SELECT settings->>'time_zone', settings->>'from', outcome FROM pipeline_run WHERE command = 'reconcile'"
        ).rows
        #expect(runs == Array(repeating: ["America/Los_Angeles", "2014-03-02", "succeeded"], count: 2))
        let lastRun = try test.connection.query("SELECT max(id) FROM pipeline_run WHERE command = 'reconcile'")
            .string(0, 0)
        #expect(try test.connection.query("SELECT DISTINCT run_id FROM reconciliation_line").rows == [[lastRun]])
    }

    @Test func reconcilesFinancialReportsByFiscalPeriod() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        let header = SalesTestData.financialHeader
        func row(_ sku: String, _ quantity: Int, _ kind: String) -> String {
            [
                "03/02/2014", "03/29/2014", " ", " ", sku, String(quantity), "0.70",
                String(format: "%.2f", 0.7 * Double(quantity)), "USD", kind, "1", "Dev", "T", " ", " ", "IA1", " ",
                "US",
                " ", " ", quantity < 0 ? "-0.99" : "0.99", "USD",
            ].joined(separator: "\t")
        }
        let text =
            [
                header, row("coins", 5, "S"), row("removeads", 2, "S"), row("removeads", -1, "R"),
                "Total_Rows\t3", "Total_Amount\t4.20", "Total_Units\t6",
            ].joined(separator: "\n") + "\n"
        _ = try test.workspace.ingestSales(paths: [try test.write("80000001_0314_US.txt", text)])
        _ = try test.workspace.reconcile(Self.window)
        let fiscal = try lines(test, source: "financial").map {
            "\($0.product) \($0.recorded)/\($0.reported) \($0.status)"
        }
        // Over 03-02 … 03-29: coins 3 + 2, removeads 2 sold and 1 refunded; gems, pack and monthly never reported.
        #expect(fiscal.contains("coins 5/5 matched"))
        #expect(fiscal.contains("removeads 1/1 matched"))
        #expect(fiscal.contains("gems 2/0 missing-in-report"))
        #expect(
            try test.count(
                "SELECT count(*) FROM reconciliation_line WHERE source = 'financial' AND frequency = 'fiscal'")
                == fiscal.count)
    }
}
