import Foundation
import IAPAudit
import Postgres
import Testing

/// What finance does with the demo's reconciliation: open the CSV in a spreadsheet and add up each currency. The
/// sums must be the database's own, and the totals the HTML page prints.
@Suite(.serialized) struct ReconciliationSpreadsheetTests {
    /// A workspace after `run` over the demo's data, and the folder its reports were written to.
    static func runTheDemo() throws -> (test: TestWorkspace, out: String) {
        let test = try TestWorkspace()
        let out = test.directory.appendingPathComponent("out").path
        _ = try test.workspace.run(ExampleData.plan(examples: ReportSiteTests.examples, outputDirectory: out))
        return (test, out)
    }

    /// RFC 4180 as a spreadsheet reads it: an optional BOM, quoted fields with doubled quotes, CRLF or LF.
    static func readCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",":
                row.append(field)
                field = ""
            case "\r\n", "\n":
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            default: field.append(character)
            }
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
        return rows
    }

    /// Column `name` of `rows` (a header row first) summed per the currency in column `currency`, as a spreadsheet's
    /// SUMIF would; every non-empty cell must be a number.
    static func sums(_ rows: [[String]], _ name: String, by currency: String) throws -> [String: Decimal] {
        let header = try #require(rows.first)
        let value = try #require(header.firstIndex(of: name), "no column \(name) in \(header)")
        let code = try #require(header.firstIndex(of: currency), "no column \(currency) in \(header)")
        var sums: [String: Decimal] = [:]
        for row in rows.dropFirst() where !row[value].isEmpty {
            let amount = try #require(Decimal(string: row[value]), "\(name) is not a number: \(row[value])")
            sums[row[code], default: 0] += amount
        }
        return sums
    }

    static func total(_ rows: [[String]], _ name: String) throws -> Int {
        let index = try #require(rows.first?.firstIndex(of: name))
        return try rows.dropFirst().reduce(0) { sum, row in
            row[index].isEmpty ? sum : sum + (try #require(Int(row[index]), "\(name) is not a whole number"))
        }
    }

    /// The database's sum of a jsonb money column per currency, over the lines `filter` keeps.
    static func databaseSums(
        _ connection: Connection, _ column: String, where filter: String = "true"
    ) throws -> [String: Decimal] {
        let rows = try connection.query(
            """
            SELECT m.key, sum(m.value::text::numeric)::text FROM reconciliation_line l,
                jsonb_each(coalesce(l.\(column), '{}')) m WHERE \(filter) GROUP BY 1
            """
        ).rows
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] ?? "", Decimal(string: $0[1] ?? "") ?? .nan) })
    }

    @Test func theReconciliationCSVSumsToTheReportsTotalsPerCurrency() throws {
        let (test, out) = try Self.runTheDemo()

        let lines = Self.readCSV(try String(contentsOfFile: out + "/reconciliation.csv", encoding: .utf8))
        let customer = try Self.sums(lines, "customer_price", by: "currency")
        let proceeds = try Self.sums(lines, "proceeds", by: "currency")
        #expect(customer.count >= 2, "the example data has more than one currency: \(customer)")
        #expect(customer == (try Self.databaseSums(test.connection, "customer_price")))
        #expect(proceeds == (try Self.databaseSums(test.connection, "proceeds")))
        // Units are on a line's first currency row only: every line counted once.
        let units = try test.connection.query(
            "SELECT sum(recorded_units)::int, sum(reported_units)::int, count(*)::int FROM reconciliation_line")
        #expect(try Self.total(lines, "recorded_units") == units.int(0, 0))
        #expect(try Self.total(lines, "reported_units") == units.int(0, 1))
        #expect(Set(lines.dropFirst().map { $0[0] + $0[1] + $0[2] + $0[3] + $0[15] }).count == units.int(0, 2))

        // The page's totals are the same sums.
        let runner = ReportRunner(connection: test.connection)
        let table = try runner.run(try ReportRunner.definition(named: "reconciliation"), parameters: [:])
        let totals = try #require(ReportTotals(table))
        for total in totals.currencies {
            #expect(Decimal(string: total.sums["customer_price"] ?? "0") == customer[total.currency] ?? 0)
            #expect(Decimal(string: total.sums["proceeds"] ?? "0") == proceeds[total.currency] ?? 0)
        }
        let page = try String(contentsOfFile: out + "/reconciliation.html", encoding: .utf8)
        #expect(page.contains("<h2 class=\"totals\">Totals</h2>"))

        // The summary's money over the differing lines sums to the same lines' money in the database.
        let summary = Self.readCSV(try String(contentsOfFile: out + "/reconciliation-summary.csv", encoding: .utf8))
        #expect(
            try Self.sums(summary, "differing_customer_price", by: "currency")
                == (try Self.databaseSums(test.connection, "customer_price", where: "l.status <> 'matched'")))
        #expect(
            try Self.total(summary, "variance")
                == (try test.connection.query("SELECT sum(difference)::int FROM reconciliation_line").int(0, 0)))
    }

    @Test func salesHistoryKeepsEveryCurrency() throws {
        let (test, out) = try Self.runTheDemo()
        let rows = Self.readCSV(try String(contentsOfFile: out + "/sales-history.csv", encoding: .utf8))
        let customer = try Self.sums(rows, "customer_price", by: "customer_currency")
        let stored = try test.connection.query(
            """
            SELECT r.customer_currency, sum(r.units * abs(r.customer_price))::text FROM sales_report_row r
            JOIN sales_report s ON s.file_id = r.file_id AND s.layout LIKE 'sales-%' GROUP BY 1
            """
        ).rows
        #expect(stored.count >= 2)
        #expect(
            customer
                == Dictionary(uniqueKeysWithValues: stored.map { ($0[0] ?? "", Decimal(string: $0[1] ?? "") ?? .nan) }))
    }
}
