import Testing

@testable import Reports

@Suite struct SVGChartTests {
    static func svg(_ table: ReportTable, _ spec: ChartSpec) throws -> String {
        guard case .drawn(let bytes, _) = SVGChart.draw(table, spec: spec) else {
            Issue.record("no chart drawn")
            throw CancellationError()
        }
        return ReportFixtures.string(bytes)
    }

    /// The numeric attribute `name` of every element that starts with `prefix`, in document order.
    static func attribute(_ name: String, of prefix: String, in svg: String) -> [Double] {
        svg.ranges(of: prefix).compactMap { range in
            let element = svg[range.lowerBound...].prefix { $0 != ">" }
            guard let start = element.firstRange(of: " \(name)=\"") else { return nil }
            return Double(element[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func drawsOneBarPerRowWithTooltipAndAccessibleLabel() throws {
        let svg = try Self.svg(
            ReportFixtures.variance, ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        #expect(ReportFixtures.count("<rect class=\"bar\"", in: svg) == 5)
        #expect(ReportFixtures.count("<title>", in: svg) == 1 + 5)
        #expect(svg.contains("<title>2014-03-02, USD: -4.25</title>"))
        #expect(svg.contains("role=\"img\" aria-label=\"Bar chart of variance by day, per currency\""))
        #expect(ReportFixtures.count("<text class=\"tick-x\"", in: svg) == 3)
        #expect(ReportFixtures.count("<g class=\"legend-item\">", in: svg) == 2)
        #expect(ReportFixtures.count("fill=\"\(SVGChart.palette[0])\"", in: svg) == 3 + 1)  // USD bars + swatch
        #expect(ReportFixtures.count("<line class=\"zero\"", in: svg) == 1)
    }

    @Test func drawsNegativeBarsBelowTheZeroLine() throws {
        let svg = try Self.svg(
            ReportFixtures.variance, ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        let zero = try #require(Self.attribute("y1", of: "<line class=\"zero\"", in: svg).first)
        let tops = Self.attribute("y", of: "<rect class=\"bar\"", in: svg)
        let heights = Self.attribute("height", of: "<rect class=\"bar\"", in: svg)
        let values = ReportFixtures.variance.rows.map { Double($0[2] ?? "") ?? 0 }
        #expect(tops.count == 5 && heights.count == 5)
        for (index, value) in values.enumerated() {
            if value < 0 {
                #expect(tops[index] >= zero - 0.01, "bar \(index) should start at the zero line")
                #expect(tops[index] + heights[index] > zero)
            } else {
                #expect(tops[index] + heights[index] <= zero + 0.01, "bar \(index) should end at the zero line")
            }
            #expect(heights[index] > 0)
        }
        // Stacked: USD and EUR on 2014-03-02 are both negative, so EUR's bar starts where USD's ends.
        #expect(abs(tops[3] - (tops[2] + heights[2])) < 0.02)
        #expect(svg.contains(">-4</text>") || svg.contains(">-5</text>"))
    }

    @Test func groupsBarsSideBySideWhenAsked() throws {
        let svg = try Self.svg(
            ReportFixtures.variance,
            ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency", layout: .grouped))
        let xs = Self.attribute("x", of: "<rect class=\"bar\"", in: svg)
        let tops = Self.attribute("y", of: "<rect class=\"bar\"", in: svg)
        let zero = try #require(Self.attribute("y1", of: "<line class=\"zero\"", in: svg).first)
        #expect(xs[0] < xs[1])  // USD and EUR of one day side by side
        #expect(abs(tops[3] - zero) < 0.02)  // EUR's negative bar starts at zero, not under USD's
    }

    @Test func drawsLinesPerSeriesWithOnePointPerRow() throws {
        let svg = try Self.svg(
            ReportFixtures.variance, ChartSpec(kind: .line, x: "day", y: "variance", series: "currency"))
        #expect(ReportFixtures.count("<polyline class=\"series-line\"", in: svg) == 2)
        #expect(ReportFixtures.count("<circle class=\"point\"", in: svg) == 5)
        #expect(ReportFixtures.count("<rect class=\"bar\"", in: svg) == 0)
    }

    @Test func thinsTickLabelsWhenThereAreManyCategories() throws {
        let days = (0..<400).map { day in ["day-\(day)", String(day % 7 - 3)] }
        let table = ReportFixtures.table(
            columns: [ReportColumn(name: "day", kind: .text), ReportColumn(name: "n", kind: .integer)], rows: days)
        let svg = try Self.svg(table, ChartSpec(kind: .bar, x: "day", y: "n"))
        let labels = ReportFixtures.count("<text class=\"tick-x\"", in: svg)
        #expect(labels > 10 && labels < 100)
        #expect(svg.contains("transform=\"rotate(-40"))
        #expect(ReportFixtures.count("<rect class=\"bar\"", in: svg) == 400)
        #expect(ReportFixtures.count("<g class=\"legend", in: svg) == 0)
    }

    @Test func mergesSeriesBeyondThePaletteIntoOther() throws {
        let rows = (0..<10).map { ["d", "series \($0)", "1"] }
        let table = ReportFixtures.table(columns: ReportFixtures.variance.columns, rows: rows)
        guard
            case .drawn(let bytes, let notes) = SVGChart.draw(
                table, spec: ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        else {
            Issue.record("no chart drawn")
            return
        }
        let svg = ReportFixtures.string(bytes)
        #expect(ReportFixtures.count("<g class=\"legend-item\">", in: svg) == SVGChart.palette.count + 1)
        #expect(ReportFixtures.count("fill=\"\(SVGChart.otherColor)\"", in: svg) == 3 + 1)
        #expect(svg.contains("<title>d, series 9: 1</title>"))
        #expect(notes.contains { $0.contains("'Other'") })
    }

    /// The text of every legend item, in order.
    static func legendTexts(in svg: String) -> [String] {
        svg.ranges(of: "<g class=\"legend-item\">").compactMap { range in
            let item = svg[range.upperBound...].prefix { $0 != "\n" }
            guard let text = item.firstRange(of: "<text"), let end = item.firstRange(of: "</text>") else { return nil }
            return String(item[text.upperBound..<end.lowerBound].drop { $0 != ">" }.dropFirst())
        }
    }

    @Test func showsLongSeriesNamesWholeInAWrappingLegend() throws {
        let monthly = "com.example.verylongapplicationname.subscription.premium.monthly"
        let yearly = "com.example.verylongapplicationname.subscription.premium.yearly"
        let table = ReportFixtures.table(
            columns: ReportFixtures.variance.columns,
            rows: [["d1", monthly, "1"], ["d1", yearly, "2"], ["d2", "com.example.basic", "3"]])
        let svg = try Self.svg(table, ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        #expect(Self.legendTexts(in: svg) == [monthly, yearly, "com.example.basic"])
        // Two long names do not fit one 960-wide row: the legend wraps to a second row instead of cutting them.
        let rowYs = Set(Self.attribute("y", of: "<rect x=", in: svg))
        #expect(rowYs.count == 2)
    }

    @Test func cutsOnlyNamesWiderThanALegendRowKeepingHeadAndTail() throws {
        let shared = "com.example." + String(repeating: "verylongapplicationname.", count: 6)
        let names = [shared + "premium.monthly", shared + "premium.yearly"]
        let table = ReportFixtures.table(
            columns: ReportFixtures.variance.columns, rows: names.map { ["d1", $0, "1"] })
        let svg = try Self.svg(table, ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        let texts = Self.legendTexts(in: svg)
        try #require(texts.count == 2)
        #expect(texts[0] != texts[1])
        for (text, name) in zip(texts, names) {
            let shown = try #require(text.split(separator: "<title>").first)
            #expect(shown.hasPrefix("com.example.verylong"))
            #expect(shown.contains("…"))
            #expect(shown.hasSuffix(name.hasSuffix("monthly") ? "premium.monthly" : "premium.yearly"))
            #expect(shown.count < name.count)
            #expect(text.hasSuffix("<title>\(name)</title>"))
        }
    }

    @Test func cutsLabelsInTheMiddle() {
        let label = ChartLabel("com.example.verylongapplicationname.premium.yearly")
        let (head, tail) = label.shortened(to: 32)
        let shown =
            String(head.map { if case .character(let c) = $0 { c } else { "?" } }) + "…"
            + String((tail ?? []).map { if case .character(let c) = $0 { c } else { "?" } })
        #expect(shown == "com.example.…name.premium.yearly")
        #expect(shown.count == 32)
        #expect(ChartLabel("short").shortened(to: 32).tail == nil)
    }

    @Test func skipsRowsWithoutANumberAndSaysSo() {
        let table = ReportFixtures.table(
            columns: ReportFixtures.variance.columns,
            rows: [["d1", "USD", "1"], ["d2", "USD", nil], ["d3", "USD", "NaN"], ["d4", "USD", "Infinity"]])
        guard
            case .drawn(let bytes, let notes) = SVGChart.draw(
                table, spec: ChartSpec(kind: .bar, x: "day", y: "variance"))
        else {
            Issue.record("no chart drawn")
            return
        }
        #expect(ReportFixtures.count("<rect class=\"bar\"", in: ReportFixtures.string(bytes)) == 1)
        #expect(ReportFixtures.count("<text class=\"tick-x\"", in: ReportFixtures.string(bytes)) == 4)
        // NULL is no value (a currency's second row of a line): not drawn, and nothing lost to say.
        #expect(notes == ["2 rows without a number in 'variance' not drawn."])
    }

    @Test func omitsChartWhenNoValueIsANumber() {
        let table = ReportFixtures.table(columns: ReportFixtures.variance.columns, rows: [["d", "USD", "x"]])
        #expect(
            SVGChart.draw(table, spec: ChartSpec(kind: .bar, x: "day", y: "currency"))
                == .omitted(reason: "no row has a number in 'currency'"))
    }

    @Test func picksRoundTicksThatIncludeZero() throws {
        let axis = try #require(NiceAxis(lower: -4.25, upper: 12.5))
        #expect(axis.ticks.map(\.label) == ["-5", "0", "5", "10", "15"])
        let small = try #require(NiceAxis(lower: 0, upper: 0.7))
        #expect(small.ticks.map(\.label) == ["0", "0.2", "0.4", "0.6", "0.8"])
        let flat = try #require(NiceAxis(lower: 0, upper: 0))
        #expect(flat.ticks.first?.value == 0)
        #expect(NiceAxis(lower: -Double.greatestFiniteMagnitude, upper: .greatestFiniteMagnitude) == nil)
        #expect(NiceAxis.decimal(3, exponent: -2) == "0.03")
        #expect(NiceAxis.decimal(-25, exponent: -1) == "-2.5")
        #expect(NiceAxis.decimal(2, exponent: 6) == "2000000")
    }

    @Test func formatsCoordinatesWithTwoDecimalsAtMost() {
        #expect(SVGChart.coordinate(12) == "12")
        #expect(SVGChart.coordinate(12.5) == "12.5")
        #expect(SVGChart.coordinate(-0.254) == "-0.25")
        #expect(SVGChart.coordinate(0.05) == "0.05")
        #expect(SVGChart.coordinate(-0.001) == "0")
        #expect(SVGChart.coordinate(.nan) == "0")
    }
}
