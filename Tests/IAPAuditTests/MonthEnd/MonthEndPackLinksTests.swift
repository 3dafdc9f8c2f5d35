import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// The month-end pack the demo's `run` writes links each figure of its bridge down to a page of the rows behind it
/// (issue 33): every link resolves to a written page, and the page's rows sum, per currency, to the bridge's figure
/// in that currency and, at Apple's rates of the month, to the figure shown.
struct MonthEndPackLinksTests {
    /// The cells of each row of the first table with `tableClass` on `page`, by heading.
    static func rows(_ page: String, tableClass: String) -> [[String: String]] {
        guard let start = page.range(of: "<table class=\"\(tableClass) cards\">") else { return [] }
        let rest = page[start.upperBound...]
        let end = rest.range(of: "</table>").map { rest[..<$0.lowerBound] } ?? rest
        let headings = end.matches(of: /<th scope="col"[^>]*>([^<]*)<\/th>/).map { String($0.output.1) }
        return end.matches(of: /<tr>(.*?)<\/tr>/).compactMap { row in
            let cells = row.output.1.matches(of: /<td[^>]*>(.*?)<\/td>/).map {
                String($0.output.1).replacing(/<[^>]*>/, with: "").replacingOccurrences(of: "&#39;", with: "'")
                    .replacingOccurrences(of: "&amp;", with: "&")
            }
            guard cells.count == headings.count else { return nil }
            return Dictionary(zip(headings, cells), uniquingKeysWith: { first, _ in first })
        }
    }

    @Test func theDemoPacksFiguresLinkToPagesWhoseRowsSumToThem() throws {
        let test = try TestWorkspace()
        let out = test.demoOut
        let demo = try test.runTheDemoThroughTheBinary()
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains(", month-end "), "the stage's own time: \(demo.stdout)")

        let pack = try String(contentsOfFile: out + "/month-end-bridge.html", encoding: .utf8)
        // One page: the bridge's chart and table, and the table per region and currency under it.
        #expect(pack.contains("<svg"))
        #expect(pack.contains("<h2 class=\"section\">Month-end</h2>"))
        #expect(Self.rows(pack, tableClass: "section-1").map { $0["currency"] } == ["USD", "EUR"])

        let figures = Self.rows(pack, tableClass: "report")
        let shown = figures.filter { !($0["amount"] ?? "").isEmpty && $0["amount"] != "0.00" }
        let links = pack.matches(of: /<a href="(month-end\/[^"]+\.html)">([^<]+)<\/a>/).map {
            (page: String($0.output.1), figure: String($0.output.2))
        }
        #expect(shown.count == 17, "\(figures)")
        #expect(links.map(\.figure) == shown.map { $0["amount"] ?? "" }, "every figure shown links to its rows")

        for (link, figure) in zip(links, shown) {
            let path = out + "/" + link.page
            let page = try #require(try? String(contentsOfFile: path, encoding: .utf8), "\(link.page) was not written")
            let rows = Self.rows(page, tableClass: "report")
            #expect(!rows.isEmpty, "\(link.page)")
            #expect(rows.allSatisfy { $0["step"] == figure["step"] }, "\(link.page)")
            // Each currency's rows, summed exactly, and converted at Apple's rates of the month as the bridge does.
            let sums = Dictionary(grouping: rows, by: { $0["currency"] ?? "" }).mapValues { group in
                group.reduce(Decimal(0)) { $0 + (Decimal(string: $1["amount"] ?? "") ?? .nan) }
            }
            let currencies = sums.keys.sorted()
            let converted = try test.connection.query(
                """
                SELECT round(sum(round(s.amount, 2) * f.rate / t.rate), 2)::text
                FROM unnest($1::text[], $2::numeric[]) s (currency, amount)
                JOIN month_end_rate f ON (f.fiscal_year, f.fiscal_month, f.currency) = (2026, 9, s.currency)
                JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month, t.currency) = (2026, 9, $3)
                    AND t.bank_currency = f.bank_currency
                """,
                [
                    "{" + currencies.joined(separator: ",") + "}",
                    "{" + currencies.map { "\(sums[$0] ?? .nan)" }.joined(separator: ",") + "}", figure["currency"],
                ])
            #expect(converted.rows.first?[0] == figure["amount"], "\(link.page): \(sums)")
            // The steps the database function computes, per currency in that currency too.
            guard let order = Int(figure["step order"] ?? ""), order < 190 else { continue }
            let own = try test.connection.query(
                "SELECT currency, amount::text FROM month_end_bridge(2026, 9) WHERE step_order = $1 AND step = $2",
                [order, figure["step"]])
            #expect(
                Dictionary(uniqueKeysWithValues: own.rows.map { ($0[0] ?? "", Decimal(string: $0[1] ?? "") ?? .nan) })
                    == sums.mapValues { ($0 * 100).rounded(.plain) / 100 }.filter { $0.value != 0 },
                "\(link.page)")
        }
    }
}

extension Decimal {
    /// Rounded to a whole number as `rule` says.
    fileprivate func rounded(_ rule: NSDecimalNumber.RoundingMode) -> Decimal {
        var value = self
        var result = Decimal()
        NSDecimalRound(&result, &value, 0, rule)
        return result
    }
}
