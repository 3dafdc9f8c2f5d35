import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

/// A fiscal year written by `iap-audit generate month-end` and loaded by `iap-audit run`, as a user would: every
/// difference the generator planted lands in its month under its own cause and step, with its amount, and no month
/// has anything unexplained (issue 33). `run` writes the pack of the latest closed fiscal month.
struct MonthEndGeneratedYearTests {
    struct Line: Equatable, CustomStringConvertible {
        var step: String
        var cause: String
        var amount: String
        var description: String { "\(step) | \(cause) | \(amount)" }
    }

    /// The bridge's lines as `report month-end-bridge` writes them (step_order, kind, step, cause, amount lead the
    /// CSV and hold no comma; the trace after them may).
    static func lines(_ csv: String) -> [Line] {
        csv.split(whereSeparator: \.isNewline).dropFirst().map { row in
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            return Line(step: String(fields[2]), cause: String(fields[3]), amount: String(fields[4]))
        }
    }

    @Test func everyPlantedDifferenceIsFoundUnderItsCauseAndNothingIsUnexplained() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("month-end-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let generated = try BinaryUnderTest.run(["generate", "month-end", "--out", data], timeout: 300)
        #expect(generated.status == 0, "\(generated.stderr)")
        let manifest = try JSONDecoder().decode(
            MonthEndManifest.self, from: Data(contentsOf: URL(fileURLWithPath: data + "/month-end-manifest.json")))
        // One plant of each cause the bridge names, the three no other test covers among them.
        #expect(
            Set(manifest.plants.map(\.name)) == [
                "late-refund", "refund-reversed", "withholding-tax", "adjustment", "exchange-rate-move",
                "unreported-purchase", "missed-delivery", "rounding",
            ])
        #expect(manifest.months.count == 12)

        let test = try TestWorkspace(trustedRoots: [data + "/" + manifest.trustedRoot])
        let out = test.directory.appendingPathComponent("out").path
        let run = try BinaryUnderTest.run(
            [
                "run", "--catalog", data + "/" + manifest.catalog, "--receipts", data + "/receipts", "--sales",
                data + "/reports", "--trusted-root", data + "/" + manifest.trustedRoot, "--out", out,
                "--database-url", test.conninfo,
            ], timeout: 600)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(
            run.stdout.contains("records: 1824 read, 1824 stored, 0 already stored, 0 quarantined"), "\(run.stdout)")
        // The exchange-rate move is also a finding on the Payments summary that carries it.
        let findings = try test.connection.query("SELECT code, count(*)::text FROM sales_report_finding GROUP BY code")
        #expect(findings.rows.map { "\($0[0] ?? ""): \($0[1] ?? "")" } == ["payments-proceeds-mismatch: 1"])

        // run wrote the pack of the latest closed fiscal month: the last one, which holds most plants.
        let last = try #require(manifest.months.last)
        let pack = try String(contentsOfFile: out + "/month-end-bridge.csv", encoding: .utf8)
        #expect(pack.contains(",\(last.month)\n") || pack.contains(",\(last.month)\r\n"), "\(pack)")
        let month = try String(contentsOfFile: out + "/month-end.csv", encoding: .utf8)
        #expect(month.contains("\(last.month),\(last.begin),\(last.end),"), "\(month)")

        _ = try test.workspace.enterBankDeposit(month: last.month, amount: last.paid, currency: "USD", note: nil)
        for month in manifest.months {
            let folder = out + "/" + month.month
            let report = try BinaryUnderTest.run(
                [
                    "report", "month-end-bridge", "--param", "month=\(month.month)", "--format", "csv", "--out",
                    folder, "--database-url", test.conninfo,
                ], timeout: 120)
            #expect(report.status == 0, "\(report.stderr)")
            let lines = Self.lines(try String(contentsOfFile: folder + "/month-end-bridge.csv", encoding: .utf8))
            #expect(lines.filter { $0.cause == "unexplained" } == [], "\(month.month): \(lines)")
            #expect(lines.contains(Line(step: "paid", cause: "", amount: month.paid)), "\(month.month): \(lines)")
            for plant in manifest.plants where plant.month == month.month {
                #expect(
                    lines.contains(Line(step: plant.step, cause: plant.cause, amount: plant.reportingAmount)),
                    "\(plant.name) in \(month.month): \(lines)")
            }
            // Between Apple's planted causes, what always separates the amounts and nothing else.
            let expected = Set(manifest.plants.filter { $0.month == month.month }.map(\.cause))
            let ordinary: Set = ["calendar vs fiscal month", "taxes and adjustments", "rounding"]
            #expect(Set(lines.map(\.cause)).subtracting([""]).isSubset(of: expected.union(ordinary)), "\(lines)")
        }
        // The bank amount entered for the last month closes its bridge: nothing between paid and the bank.
        let closing = Self.lines(
            try String(contentsOfFile: out + "/\(last.month)/month-end-bridge.csv", encoding: .utf8))
        #expect(
            closing.suffix(2) == [
                Line(step: "paid", cause: "", amount: last.paid), Line(step: "bank", cause: "", amount: last.paid),
            ])

        // Each per-currency plant also in the database function, in its own currency.
        for plant in manifest.plants where plant.step != "exchange rates" {
            let parts = plant.month.split(separator: "-").compactMap { Int($0) }
            let found = try test.connection.query(
                """
                SELECT amount::text FROM month_end_bridge($1, $2)
                WHERE currency = $3 AND step = $4 AND cause = $5
                """, [parts[0], parts[1], plant.currency, plant.step, plant.cause])
            #expect(found.rows.map { $0[0] ?? "" } == [plant.amount], "\(plant.name) in \(plant.month)")
        }
    }
}

extension MonthEndGeneratedYearTests {
    /// The demo's examples hold the generated year (`generate month-end --out examples`): the pack the demo writes is
    /// that year's last fiscal month, every cause planted there shown and nothing unexplained.
    @Test func theDemoWritesTheLastClosedMonthsPackWithItsCauses() throws {
        let test = try TestWorkspace()
        let out = test.directory.appendingPathComponent("out").path
        _ = try test.workspace.run(ExampleData.plan(examples: ReportSiteTests.examples, outputDirectory: out))
        let csv = try String(contentsOfFile: out + "/month-end-bridge.csv", encoding: .utf8)
        let lines = Self.lines(csv)
        #expect(csv.contains(",2026-09\r\n") || csv.contains(",2026-09\n"), "\(csv)")
        #expect(
            Set(lines.map(\.cause)).subtracting([""]) == [
                "calendar vs fiscal month", "purchases Apple never reported", "sales never recorded",
                "taxes and adjustments", "refunds and reversals", "rounding", "exchange rates",
            ], "\(lines)")
        let page = try String(contentsOfFile: out + "/month-end-bridge.html", encoding: .utf8)
        #expect(page.contains("<svg"))
    }
}
