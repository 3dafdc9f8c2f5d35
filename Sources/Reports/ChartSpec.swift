/// What an HTML report draws above its table: bars or lines of one numeric column over another column.
package struct ChartSpec: Sendable, Hashable {
    /// The kind of chart.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case bar
        case line
        /// A bridge: rows whose series value is `total` are bars from zero; every other row floats from the running
        /// total before it, up or down by its value (month-end: recorded → sold → owed → paid).
        case waterfall
    }

    /// How bars of several series share one x category.
    package enum BarLayout: String, Sendable, Hashable, CaseIterable {
        case stacked
        case grouped
    }

    /// Bars or lines.
    package var kind: Kind
    /// The column whose values are the categories along the x axis, in row order.
    package var x: String
    /// The numeric column drawn along the y axis.
    package var y: String
    /// The column that splits the values into coloured series, if any.
    package var series: String?
    /// How bars of several series share a category; ignored for lines.
    package var layout: BarLayout
    /// What the y values count or measure (`units`, `flags`), written beside the y axis.
    package var unit: String?
    /// A numeric column that orders the series, smallest first (e.g. a severity rank): the first series get the
    /// palette's colours and the legend's first places, and only the last are merged into "Other".
    package var rank: String?

    /// Creates a chart description.
    package init(
        kind: Kind, x: String, y: String, series: String? = nil, layout: BarLayout = .stacked, unit: String? = nil,
        rank: String? = nil
    ) {
        self.kind = kind
        self.x = x
        self.y = y
        self.series = series
        self.layout = layout
        self.unit = unit
        self.rank = rank
    }
}

extension ChartSpec {
    /// Parses the value of a `chart:` header line, e.g. `bar x=day y=variance series=currency layout=grouped`.
    static func parse(_ text: Substring) throws(HeaderLineProblem) -> ChartSpec {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        let example = "e.g. 'chart: bar x=day y=variance series=currency'"
        guard let first = tokens.first, !first.contains("=") else {
            throw HeaderLineProblem("start with the chart kind (bar or line), \(example)")
        }
        guard let kind = Kind(rawValue: first.lowercased()) else {
            throw HeaderLineProblem("unknown chart kind '\(first)'; use bar, line or waterfall")
        }
        var options: [String: String] = [:]
        for token in tokens.dropFirst() {
            let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw HeaderLineProblem("expected option=value, got '\(token)', \(example)")
            }
            let key = parts[0].lowercased()
            guard ["x", "y", "series", "layout", "unit", "rank"].contains(key) else {
                throw HeaderLineProblem("unknown chart option '\(parts[0])'; use x, y, series, layout, unit or rank")
            }
            guard options[key] == nil else {
                throw HeaderLineProblem("chart option '\(key)' is given twice")
            }
            options[key] = String(parts[1])
        }
        guard let x = options["x"], let y = options["y"] else {
            throw HeaderLineProblem("a chart needs the columns to draw: x=COLUMN and y=COLUMN, \(example)")
        }
        var layout = BarLayout.stacked
        if let value = options["layout"] {
            guard kind == .bar else { throw HeaderLineProblem("layout applies to bar charts only") }
            guard let parsed = BarLayout(rawValue: value.lowercased()) else {
                throw HeaderLineProblem("layout must be stacked or grouped, not '\(value)'")
            }
            layout = parsed
        }
        return ChartSpec(
            kind: kind, x: x, y: y, series: options["series"], layout: layout, unit: options["unit"],
            rank: options["rank"])
    }
}
