import Testing

@testable import Reports

/// What a finance person and an analyst read on a page: totals per currency, charts that place days by date and
/// never hide the most severe series, parameters that were asked for, a way back to the index.
struct ReportReadabilityTests {
    static let money = ReportFixtures.table(
        columns: [
            ReportColumn(name: "period", kind: .date), ReportColumn(name: "recorded_units", kind: .integer),
            ReportColumn(name: "currency", kind: .text), ReportColumn(name: "customer_price", kind: .decimal),
            ReportColumn(name: "proceeds", kind: .decimal),
        ],
        rows: [
            ["2014-03-01", "2", "GBP", "2.99", "2.09"], ["2014-03-01", nil, "USD", "8.97", "6.28"],
            ["2014-03-02", "1", "USD", "-0.99", nil], ["2014-03-02", "0", nil, nil, nil],
        ])

    @Test func totalsAreExactPerCurrencyAndCountUnitsOnce() throws {
        let totals = try #require(ReportTotals(Self.money))
        #expect(totals.amountColumns == ["customer_price", "proceeds"])
        #expect(totals.currencies.map(\.currency) == ["GBP", "USD"])
        #expect(totals.currencies[1].sums == ["customer_price": "7.98", "proceeds": "6.28"])
        #expect(totals.units.map(\.sum) == ["3"])
        #expect(ReportTotals(ReportFixtures.table(columns: [ReportColumn(name: "x", kind: .decimal)], rows: [])) == nil)
        let html = ReportFixtures.render(Self.money, .html)
        #expect(
            html.contains(
                "<td class=\"date\" data-label=\"currency\">USD</td><td class=\"num\" data-label=\"customer price\">7.98"
                    + "</td><td class=\"num\" data-label=\"proceeds\">6.28</td>"))
    }

    @Test func exactDecimalsAddWithoutRounding() throws {
        var sum = ExactDecimal()
        for text in ["0.1", "0.2", "-0.30", "1000000.005"] { sum += try #require(ExactDecimal(text)) }
        #expect(sum.text == "1000000.005")
        #expect(ExactDecimal("1e5") == nil && ExactDecimal("") == nil && ExactDecimal("-") == nil)
    }

    @Test func aTimeAxisPlacesDaysByDateAndCutsLongGaps() throws {
        let axis = try #require(ChartTimeAxis(categories: ["2014-03-01", "2014-03-03", "2025-03-04"]))
        #expect(axis.segments.count == 2)
        #expect(axis.cutGaps.first?.before == "2014-03-03" && axis.cutGaps.first?.after == "2025-03-04")
        let layout = axis.layout(left: 0, width: 428)
        // Four days drawn (three in 2014, one in 2025) and one break.
        #expect(layout.dayWidth == 100)
        #expect(axis.x(ChartTimeAxis.dayNumber("2014-03-03") ?? 0, in: layout) == 250)
        #expect(ChartTimeAxis(categories: ["2014-03-01", "2014-02-30"]) == nil)
        #expect(ChartTimeAxis(categories: ["rule"]) == nil)
        #expect(ChartTimeAxis.text(try #require(ChartTimeAxis.dayNumber("2000-02-29")), .day) == "2000-02-29")

        let table = ReportFixtures.table(
            columns: ReportFixtures.variance.columns,
            rows: [["2014-03-01", "USD", "1"], ["2014-03-21", "USD", "2"], ["2025-03-04", "USD", "3"]])
        guard
            case .drawn(let svg, let notes) = SVGChart.draw(table, spec: ChartSpec(kind: .bar, x: "day", y: "variance"))
        else {
            Issue.record("no chart")
            return
        }
        #expect(ReportFixtures.string(svg).contains("class=\"axis-break\""))
        #expect(notes.contains { $0.contains("skips the days between 2014-03-21 and 2025-03-04") })
    }

    @Test func rankedSeriesNeverHideTheMostSevere() throws {
        // Ten noisy low-rank rules come first in the rows; the one high-rank rule comes last.
        var rows: [[String?]] = (0..<10).map { ["2014-03-01", "noise-\($0)", "5", "2"] }
        rows.append(["2014-03-02", "forged-signature", "1", "0"])
        let table = ReportFixtures.table(
            columns: [
                ReportColumn(name: "day", kind: .text), ReportColumn(name: "rule", kind: .text),
                ReportColumn(name: "hits", kind: .integer), ReportColumn(name: "severity_rank", kind: .integer),
            ], rows: rows)
        let spec = ChartSpec(kind: .bar, x: "day", y: "hits", series: "rule", unit: "flags", rank: "severity_rank")
        guard case .drawn(let bytes, let notes) = SVGChart.draw(table, spec: spec) else {
            Issue.record("no chart")
            return
        }
        let svg = ReportFixtures.string(bytes)
        #expect(SVGChartTests.legendTexts(in: svg).first == "forged-signature")
        #expect(svg.contains("<title>2014-03-02, forged-signature: 1</title></rect>"))
        #expect(!svg.contains("fill=\"\(SVGChart.otherColor)\"><title>2014-03-02"))
        #expect(svg.contains("hits (flags)"))
        #expect(notes.contains { $0.contains("'Other'") && $0.contains("noise-9") })
    }

    @Test func pagesShowTheParametersAskedForAndLeadBackToTheIndex() {
        var table = Self.money
        table.parameters = [
            .init(name: "from", value: "1970-01-01", isDefault: true), .init(name: "status", value: "variance"),
        ]
        table.navigation = [ReportTable.Link(text: "Run summary", href: "index.html")]
        let html = ReportFixtures.render(table, .html)
        #expect(html.contains("<nav class=\"crumbs\"><a href=\"index.html\">Run summary</a></nav>"))
        #expect(html.contains("Parameters: <code>status</code> = <code>variance</code></p>"))
        #expect(!html.contains("1970-01-01"))
        #expect(html.contains("<th scope=\"col\" class=\"num\">recorded units</th>"))
    }

    @Test func evidenceReadsOnOneLine() throws {
        let evidence = try #require(
            EvidenceValue.parse(#"{"app_accounts": ["a", "b", "c", "d"], "windowDays": 30, "note": null}"#))
        #expect(evidence.summary() == "app accounts: a, b (+2); window days: 30; note: none")
        #expect(evidence.summary(limit: 12) == "app account…")
    }
}
