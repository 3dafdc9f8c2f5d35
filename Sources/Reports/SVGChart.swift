/// An inline SVG bar or line chart of one result column over another, drawn for the HTML report page.
///
/// Categories along x are the distinct x values in row order (days, rule ids). Bars of one category stack
/// (or sit side by side when grouped) per series; positive values grow up from the zero line, negative values down.
/// Every bar or point carries a `<title>` tooltip with its exact value as PostgreSQL printed it.
struct SVGChart {
    /// Why no chart was drawn, or the SVG and anything the reader should know about it.
    enum Outcome: Equatable {
        case drawn(svg: [UInt8], notes: [String])
        case omitted(reason: String)
    }

    /// The Okabe–Ito colours, distinguishable with the common colour-vision deficiencies, on light and dark pages.
    static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442"]
    /// The colour of the series merged into "Other" once the palette is used up.
    static let otherColor = "#8C8C8C"

    private static let width = 960.0
    private static let plotHeight = 300.0
    private static let characterWidth = 6.6
    /// The most character cells an x-axis label takes before it is cut.
    private static let tickLabelLimit = 16

    /// One value to draw.
    private struct Datum {
        var row: Int
        var category: Int
        var series: Int
        var value: Double
        var text: String
        var seriesLabel: String?
        /// The stacked extent of a bar, filled in while scaling.
        var base = 0.0
        var end = 0.0
    }

    /// Draws `spec` over `table`, or says why it cannot.
    static func draw(_ table: ReportTable, spec: ChartSpec) -> Outcome {
        func column(_ name: String, _ role: String) -> Result<Int, Failure> {
            guard let index = table.columns.firstIndex(where: { $0.name == name }) else {
                return .failure(Failure(reason: "the result has no column '\(name)' for the \(role)"))
            }
            return .success(index)
        }
        let xColumn: Int
        let yColumn: Int
        var seriesColumn: Int?
        var rankColumn: Int?
        do {
            xColumn = try column(spec.x, "x axis").get()
            yColumn = try column(spec.y, "y axis").get()
            if let series = spec.series { seriesColumn = try column(series, "series").get() }
            if let rank = spec.rank { rankColumn = try column(rank, "series order").get() }
        } catch {
            return .omitted(reason: error.reason)
        }
        guard table.rows.count <= ReportRenderer.chartRowLimit else {
            return .omitted(
                reason: "\(ReportRenderer.rowCount(table.rows.count)) are more than a chart can show "
                    + "(at most \(ReportRenderer.grouped(ReportRenderer.chartRowLimit)))"
            )
        }

        var categories: [String] = []
        var categoryIndex: [String: Int] = [:]
        var seriesNames: [String] = []
        var seriesIndex: [String: Int] = [:]
        var hasOther = false
        var otherNames: [String] = []
        var data: [Datum] = []
        var skipped = 0
        if let seriesColumn, let rankColumn {
            // Ranked series take the palette in rank order, so "Other" only ever holds the least important; the
            // series of the best rank (high severity) are never merged, taking extra colours when they must.
            let ranked = rankedSeries(table, series: seriesColumn, rank: rankColumn)
            let best = ranked.first?.rank
            for (name, rank) in ranked
            where seriesNames.count < palette.count || (rank == best && seriesNames.count < colorLimit) {
                seriesIndex[name] = seriesNames.count
                seriesNames.append(name)
            }
        }
        for (rowNumber, row) in table.rows.enumerated() {
            let xText = label(ReportRenderer.cell(row, xColumn), kind: table.columns[xColumn].kind)
            let category = categoryIndex[xText] ?? categories.count
            if category == categories.count {
                categoryIndex[xText] = category
                categories.append(xText)
            }
            // NULL is no value (a currency's second row, say), not a value lost: only non-numbers are counted.
            guard let yText = ReportRenderer.cell(row, yColumn) else { continue }
            guard let value = Double(yText), value.isFinite else {
                skipped += 1
                continue
            }
            var series = 0
            var seriesLabel: String?
            if let seriesColumn {
                let name = label(ReportRenderer.cell(row, seriesColumn), kind: table.columns[seriesColumn].kind)
                seriesLabel = name
                if let known = seriesIndex[name] {
                    series = known
                } else if seriesNames.count < palette.count && rankColumn == nil {
                    series = seriesNames.count
                    seriesIndex[name] = series
                    seriesNames.append(name)
                } else {
                    series = Int.max
                    hasOther = true
                    if !otherNames.contains(name) { otherNames.append(name) }
                }
            }
            data.append(
                Datum(
                    row: rowNumber, category: category, series: series, value: value, text: yText,
                    seriesLabel: seriesLabel)
            )
        }
        guard !data.isEmpty else { return .omitted(reason: "no row has a number in '\(spec.y)'") }

        // "Other" comes after the named series, in the legend and in a group of bars.
        for index in data.indices where data[index].series == Int.max { data[index].series = seriesNames.count }
        let otherSeries = hasOther ? seriesNames.count : Int.max
        let groupCount = spec.kind == .bar && spec.layout == .grouped ? seriesNames.count + (hasOther ? 1 : 0) : 1
        var lower = 0.0
        var upper = 0.0
        if spec.kind == .waterfall {
            // A total is a bar from zero; a difference floats from the running total before it.
            var running = 0.0
            for index in data.indices {
                let isTotal = data[index].seriesLabel == "total"
                data[index].base = isTotal ? 0 : running
                data[index].end = isTotal ? data[index].value : running + data[index].value
                running = data[index].end
                upper = max(upper, data[index].base, data[index].end)
                lower = min(lower, data[index].base, data[index].end)
            }
        } else if spec.kind == .bar {
            // Positive values stack upwards and negative values downwards, each from zero, per category and group.
            var positive = [Double](repeating: 0, count: categories.count * groupCount)
            var negative = positive
            for index in data.indices {
                let slot = data[index].category * groupCount + (groupCount > 1 ? data[index].series : 0)
                let value = data[index].value
                if value >= 0 {
                    data[index].base = positive[slot]
                    positive[slot] += value
                    data[index].end = positive[slot]
                } else {
                    data[index].base = negative[slot]
                    negative[slot] += value
                    data[index].end = negative[slot]
                }
                upper = max(upper, data[index].end)
                lower = min(lower, data[index].end)
            }
        } else {
            for datum in data {
                upper = max(upper, datum.value)
                lower = min(lower, datum.value)
            }
        }
        guard let axis = NiceAxis(lower: lower, upper: upper) else {
            return .omitted(reason: "the values in '\(spec.y)' are too large to draw")
        }

        var notes: [String] = []
        if skipped > 0 {
            notes.append("\(ReportRenderer.rowCount(skipped)) without a number in '\(spec.y)' not drawn.")
        }
        if hasOther {
            notes.append(
                "Series after the first \(seriesNames.count) are drawn together as 'Other': "
                    + otherNames.joined(separator: ", ") + ".")
        }
        var legend = seriesNames.enumerated().map { (name: $0.element, color: color($0.offset, other: otherSeries)) }
        if hasOther { legend.append((name: "Other", color: otherColor)) }
        if seriesColumn == nil { legend = [] }

        let timeAxis = ChartTimeAxis(categories: categories)
        for gap in timeAxis?.cutGaps ?? [] {
            notes.append("The time axis skips the days between \(gap.before) and \(gap.after), which have no rows.")
        }
        var canvas = Canvas(
            axis: axis, categories: categories, legend: legend, timeAxis: timeAxis,
            unit: spec.unit.map { "\(spec.y) (\($0))" })
        canvas.otherSeries = otherSeries
        canvas.labelsValues = spec.kind == .waterfall
        let kindName = ["bar": "Bar", "line": "Line", "waterfall": "Waterfall"][spec.kind.rawValue] ?? "Bar"
        let perSeries = spec.series.map { ", per \($0)" } ?? ""
        let unit = spec.unit.map { " in \($0)" } ?? ""
        canvas.begin(label: "\(kindName) chart of \(spec.y)\(unit) by \(spec.x)\(perSeries)")
        if spec.kind != .line {
            canvas.bars(data, groupCount: groupCount)
        } else {
            canvas.lines(data, seriesCount: seriesNames.count)
        }
        canvas.end()
        return .drawn(svg: canvas.out.bytes, notes: notes)
    }

    /// Extra colours (Paul Tol's muted scheme) for series of the best rank beyond the palette.
    static let extraPalette = ["#332288", "#117733", "#882255", "#44AA99", "#999933", "#AA4499", "#88CCEE", "#DDCC77"]

    /// The most series drawn with colours of their own.
    static var colorLimit: Int { palette.count + extraPalette.count }

    /// The colour of series `series`, `other` being the index of "Other".
    static func color(_ series: Int, other: Int) -> String {
        if series == other || series >= colorLimit { return otherColor }
        return series < palette.count ? palette[series] : extraPalette[series - palette.count]
    }

    /// The series names ordered by the smallest number each has in the rank column (no number: last), then by their
    /// first row, with that number.
    private static func rankedSeries(_ table: ReportTable, series: Int, rank: Int) -> [(name: String, rank: Double)] {
        var order: [String: (rank: Double, first: Int)] = [:]
        for (rowNumber, row) in table.rows.enumerated() {
            let name = label(ReportRenderer.cell(row, series), kind: table.columns[series].kind)
            let value = ReportRenderer.cell(row, rank).flatMap(Double.init) ?? .infinity
            if let known = order[name] {
                order[name] = (min(known.rank, value), known.first)
            } else {
                order[name] = (value, rowNumber)
            }
        }
        return order.sorted { ($0.value.rank, $0.value.first) < ($1.value.rank, $1.value.first) }.map {
            (name: $0.key, rank: $0.value.rank)
        }
    }

    /// A category or series name as shown: NULL spelled out, booleans as true/false.
    private static func label(_ value: String?, kind: ColumnKind) -> String {
        value.map { ReportRenderer.displayText($0, kind: kind) } ?? "NULL"
    }

    private struct Failure: Error {
        var reason: String
    }

    /// The SVG under construction, with the geometry every element shares.
    private struct Canvas {
        var out = RenderBuffer()
        let axis: NiceAxis
        let categories: [String]
        let legend: [(name: String, color: String)]
        let left: Double
        let top: Double
        let plotWidth: Double
        let band: Double
        let height: Double
        let legendRows: [[(x: Double, index: Int)]]
        let labelStride: Int
        let rotateLabels: Bool
        let categoryLabels: [ChartLabel]
        let legendLabels: [ChartLabel]
        /// The most character cells a legend name may take: a whole legend row, so only a name that cannot fit on
        /// any row is cut.
        let legendLimit: Int
        /// The x of each category's centre.
        let centers: [Double]
        /// The width a category's bars share.
        let slot: Double
        /// The labels under a time axis (nil: one label per category).
        let timeTicks: [(x: Double, label: String)]?
        /// Where a time axis skips a long gap.
        let breaks: [Double]
        /// The series drawn as "Other", if any.
        var otherSeries = Int.max
        /// Each bar carries its value above it, and is at least `minimumBarHeight` tall (a waterfall: a step of a
        /// cent beside totals of thousands is still seen and read).
        var labelsValues = false
        static let minimumBarHeight = 3.0
        /// The y axis title (the value and its unit), written up the left edge.
        let unit: String?

        init(
            axis: NiceAxis, categories: [String], legend: [(name: String, color: String)], timeAxis: ChartTimeAxis?,
            unit: String?
        ) {
            self.axis = axis
            self.categories = categories
            self.legend = legend
            self.unit = unit
            let tickWidth = axis.ticks.map { Double($0.label.count) }.max() ?? 1
            let count = Double(max(categories.count, 1))
            let unitWidth = unit == nil ? 0.0 : 16.0

            // Labels that fit sit level under their category; otherwise they slant and only every n-th is shown.
            categoryLabels = categories.map(ChartLabel.init)
            let longest = Double(categoryLabels.map { $0.shownWidth(limit: SVGChart.tickLabelLimit) }.max() ?? 1)
            let labelWidth = longest * SVGChart.characterWidth + 8
            var left = 14 + unitWidth + tickWidth * SVGChart.characterWidth
            rotateLabels = timeAxis == nil && labelWidth > (SVGChart.width - left - 16) / count
            if rotateLabels {
                // A slanted first label reaches left by its width times cos 40°, plus slack for wide fonts.
                let firstBand = (SVGChart.width - left - 16) / count
                left = max(left, longest * SVGChart.characterWidth * 0.85 - firstBand / 2 + 8)
            }
            self.left = left
            plotWidth = SVGChart.width - left - 16
            band = plotWidth / count
            labelStride = rotateLabels ? max(1, Int((count * 14 / plotWidth).rounded(.up))) : 1
            let bottom = rotateLabels ? 24 + longest * SVGChart.characterWidth * 0.65 : 28
            if let timeAxis {
                // Each day a band of its own, at least wide enough to see; a category sits at its day.
                let layout = timeAxis.layout(left: left, width: plotWidth)
                centers = categories.map { timeAxis.x(ChartTimeAxis.dayNumber($0) ?? 0, in: layout) }
                slot = max(layout.dayWidth * 0.8, 2.5)
                timeTicks = timeAxis.ticks(in: layout, spacing: 12 * SVGChart.characterWidth).map {
                    (x: $0.x, label: $0.label)
                }
                breaks = layout.breaks
            } else {
                let band = band
                let left = left
                centers = categories.indices.map { left + (Double($0) + 0.5) * band }
                slot = band * 0.8
                timeTicks = nil
                breaks = []
            }

            // Legend items flow left to right and wrap; names are shown whole unless one is wider than a row.
            legendLabels = legend.map { ChartLabel($0.name) }
            let legendLimit = max(Int((SVGChart.width - 8 - left - 28) / SVGChart.characterWidth), 16)
            self.legendLimit = legendLimit
            var rows: [[(x: Double, index: Int)]] = []
            var x = left
            for index in legend.indices {
                let itemWidth =
                    28 + Double(legendLabels[index].shownWidth(limit: legendLimit)) * SVGChart.characterWidth
                if rows.isEmpty || (x + itemWidth > SVGChart.width - 8 && x > left) {
                    rows.append([])
                    x = left
                }
                rows[rows.count - 1].append((x: x, index: index))
                x += itemWidth
            }
            legendRows = rows
            top = 14 + Double(rows.count) * 20
            height = top + SVGChart.plotHeight + bottom
        }

        func y(_ value: Double) -> Double {
            top + (axis.maximum - value) / (axis.maximum - axis.minimum) * SVGChart.plotHeight
        }

        func color(_ series: Int) -> String {
            SVGChart.color(series, other: otherSeries)
        }

        mutating func begin(label: String) {
            out.write("<svg viewBox=\"0 0 \(n(SVGChart.width)) \(n(height))\"")
            out.write(" role=\"img\" aria-label=\"")
            ReportRenderer.appendHTMLEscaped(label, to: &out)
            out.write("\">\n<title>")
            ReportRenderer.appendHTMLEscaped(label, to: &out)
            out.write("</title>\n<g class=\"grid\">\n")
            let right = n(left + plotWidth)
            for tick in axis.ticks {
                let tickY = n(y(tick.value))
                out.write("<line x1=\"\(n(left))\" x2=\"\(right)\" y1=\"\(tickY)\" y2=\"\(tickY)\"/>")
                out.write("<text class=\"tick-y\" x=\"\(n(left - 6))\" y=\"\(n(y(tick.value) + 4))\"")
                out.write(" text-anchor=\"end\">\(tick.label)</text>\n")
            }
            out.write("</g>\n")
            if let unit {
                let middle = n(top + SVGChart.plotHeight / 2)
                out.write("<text class=\"unit\" x=\"12\" y=\"\(middle)\" text-anchor=\"middle\"")
                out.write(" transform=\"rotate(-90 12 \(middle))\">")
                ReportRenderer.appendHTMLEscaped(unit, controls: .svgTSpan, to: &out)
                out.write("</text>\n")
            }
            out.write("<g class=\"x-labels\">\n")
            let labelY = top + SVGChart.plotHeight + 16
            if let timeTicks {
                for x in breaks {
                    // A break in the axis: two slashes across it, and a dashed line up the plot.
                    let base = top + SVGChart.plotHeight
                    out.write("<path class=\"axis-break\" d=\"M\(n(x - 6)),\(n(base + 6)) L\(n(x - 2)),\(n(base - 6)) ")
                    out.write("M\(n(x + 2)),\(n(base + 6)) L\(n(x + 6)),\(n(base - 6))\"/>")
                    out.write(
                        "<line class=\"axis-gap\" x1=\"\(n(x))\" x2=\"\(n(x))\" y1=\"\(n(top))\" y2=\"\(n(base))\"/>\n")
                }
                for tick in timeTicks {
                    out.write("<text class=\"tick-x\" x=\"\(n(tick.x))\" y=\"\(n(labelY))\" text-anchor=\"middle\">")
                    ReportRenderer.appendHTMLEscaped(tick.label, to: &out)
                    out.write("</text>\n")
                }
                out.write("</g>\n")
                return
            }
            for index in categories.indices where index % labelStride == 0 {
                let x = n(centers[index])
                if rotateLabels {
                    out.write("<text class=\"tick-x\" x=\"\(x)\" y=\"\(n(labelY))\" text-anchor=\"end\"")
                    out.write(" transform=\"rotate(-40 \(x) \(n(labelY)))\">")
                } else {
                    out.write("<text class=\"tick-x\" x=\"\(x)\" y=\"\(n(labelY))\" text-anchor=\"middle\">")
                }
                categoryLabels[index].write(limit: SVGChart.tickLabelLimit, to: &out)
                out.write("</text>\n")
            }
            out.write("</g>\n")
        }

        /// One `<rect class="bar">` per datum, so every row with a value is one bar.
        mutating func bars(_ data: [Datum], groupCount: Int) {
            let groupWidth = slot / Double(groupCount)
            out.write("<g class=\"bars\">\n")
            for datum in data {
                let group = groupCount > 1 ? datum.series : 0
                let x = centers[datum.category] - slot / 2 + Double(group) * groupWidth
                var barTop = y(max(datum.base, datum.end))
                var barHeight = y(min(datum.base, datum.end)) - barTop
                if labelsValues && datum.value != 0 && barHeight < Self.minimumBarHeight {
                    // Grown about where the step starts, so it still sits on the running total.
                    barTop -= (Self.minimumBarHeight - barHeight) / 2
                    barHeight = Self.minimumBarHeight
                }
                out.write("<rect class=\"bar\" x=\"\(n(x))\" y=\"\(n(barTop))\" width=\"\(n(groupWidth))\"")
                out.write(" height=\"\(n(barHeight))\" fill=\"\(color(datum.series))\"><title>")
                appendTooltip(datum)
                out.write("</title></rect>\n")
                guard labelsValues else { continue }
                // Above a bar that rises or stands from zero, below one that falls below zero.
                let below = datum.end < 0 && datum.end <= datum.base
                let labelY = below ? barTop + barHeight + 13 : barTop - 4
                out.write("<text class=\"value\" x=\"\(n(x + groupWidth / 2))\" y=\"\(n(labelY))\"")
                out.write(" text-anchor=\"middle\">")
                ReportRenderer.appendHTMLEscaped(datum.text, controls: .svgTSpan, to: &out)
                out.write("</text>\n")
            }
            out.write("</g>\n")
        }

        /// A polyline per series through its points in x order, and a `<circle class="point">` per datum.
        mutating func lines(_ data: [Datum], seriesCount: Int) {
            out.write("<g class=\"lines\">\n")
            // "Other" mixes several series, so its points are not joined into one misleading line.
            for series in 0..<max(seriesCount, 1) {
                let points = data.filter { $0.series == series }.sorted {
                    ($0.category, $0.row) < ($1.category, $1.row)
                }
                guard points.count > 1 else { continue }
                let coordinates = points.map { "\(n(center($0))),\(n(y($0.value)))" }.joined(separator: " ")
                out.write("<polyline class=\"series-line\" stroke=\"\(color(series))\" points=\"\(coordinates)\"/>\n")
            }
            let radius = data.count > 200 ? "1.5" : "3"
            for datum in data {
                out.write("<circle class=\"point\" cx=\"\(n(center(datum)))\" cy=\"\(n(y(datum.value)))\"")
                out.write(" r=\"\(radius)\" fill=\"\(color(datum.series))\"><title>")
                appendTooltip(datum)
                out.write("</title></circle>\n")
            }
            out.write("</g>\n")
        }

        /// The zero line (drawn over the bars so it stays visible), the y axis, and the legend.
        mutating func end() {
            let zero = n(y(0))
            out.write("<line class=\"zero\" x1=\"\(n(left))\" x2=\"\(n(left + plotWidth))\" y1=\"\(zero)\" ")
            out.write("y2=\"\(zero)\"/>\n")
            out.write("<line class=\"axis\" x1=\"\(n(left))\" x2=\"\(n(left))\" y1=\"\(n(top))\" ")
            out.write("y2=\"\(n(top + SVGChart.plotHeight))\"/>\n")
            if !legend.isEmpty {
                out.write("<g class=\"legend\">\n")
                for (rowNumber, row) in legendRows.enumerated() {
                    let rowY = 8 + Double(rowNumber) * 20
                    for item in row {
                        out.write("<g class=\"legend-item\"><rect x=\"\(n(item.x))\" y=\"\(n(rowY))\" width=\"12\"")
                        out.write(" height=\"12\" fill=\"\(legend[item.index].color)\"/>")
                        out.write("<text x=\"\(n(item.x + 18))\" y=\"\(n(rowY + 10))\">")
                        legendLabels[item.index].write(limit: legendLimit, to: &out)
                        out.write("</text></g>\n")
                    }
                }
                out.write("</g>\n")
            }
            out.write("</svg>\n")
        }

        private func center(_ datum: Datum) -> Double {
            centers[datum.category]
        }

        /// The tooltip of a bar or point: `category, series: value`, each input value isolated.
        ///
        /// A tooltip is plain text, so controls show as plain markers and a value that could reorder its neighbours
        /// (a right-to-left name) is wrapped in FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE.
        private mutating func appendTooltip(_ datum: Datum) {
            appendIsolated(categories[datum.category])
            if let series = datum.seriesLabel {
                out.write(", ")
                appendIsolated(series)
            }
            out.write(": ")
            appendIsolated(datum.text)
        }

        /// `value` escaped with visible controls, between FSI and PDI when it might reorder its neighbours.
        ///
        /// The isolates are written here, after escaping, because the escaping shows every isolate as a marker: the
        /// value's own unbalanced isolates can then not end ours early.
        private mutating func appendIsolated(_ value: String) {
            let isIsolated = ReportRenderer.mayReorderNeighbours(value)
            if isIsolated { out.write("\u{2068}") }
            ReportRenderer.appendHTMLEscaped(value, to: &out)
            if isIsolated { out.write("\u{2069}") }
        }

        /// A coordinate with at most two decimals, without Foundation's formatters.
        private func n(_ value: Double) -> String {
            SVGChart.coordinate(value)
        }
    }

    /// `value` rounded to two decimals, trailing zeros dropped: `12`, `12.5`, `-0.25`.
    static func coordinate(_ value: Double) -> String {
        let scaled = (value * 100).rounded()
        guard scaled.isFinite, scaled.magnitude < 1e15 else { return "0" }
        let hundredths = Int64(scaled)
        let sign = hundredths < 0 ? "-" : ""
        let whole = hundredths.magnitude / 100
        let fraction = hundredths.magnitude % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
