extension ReportRenderer {
    /// One self-contained HTML page: inline stylesheet, no scripts, no external resources.
    ///
    /// The page shows the title, description, parameters, generation time and row count, then the chart (if the
    /// report has one and there are rows), then the table, capped at `htmlRowLimit` rows.
    static func html(_ table: ReportTable, chart: ChartSpec?) -> [UInt8] {
        var out = RenderBuffer()
        out.reserveCapacity(estimatedSize(table, rows: htmlRowLimit) * 2)
        let sectionLabels = table.sections.enumerated().map { cardLabels($1.columns, table: "section-\($0 + 1)") }
        appendDocumentHead(
            title: table.title,
            style: stylesheet + cardStylesheet + cardLabels(table.columns)
                + (table.sections.isEmpty ? "" : "h2.section { font-size: 1.2em; margin: 1.6em 0 0.3em; }\n")
                + sectionLabels.joined(), to: &out)
        if !table.navigation.isEmpty {
            out.write("<nav class=\"crumbs\">")
            for (index, link) in table.navigation.enumerated() {
                if index > 0 { out.write(" › ") }
                out.write("<a href=\"")
                appendHTMLEscaped(link.href, to: &out)
                out.write("\">")
                appendHTMLEscaped(link.text, controls: .htmlSpan, to: &out)
                out.write("</a>")
            }
            out.write("</nav>\n")
        }
        out.write("<header>\n<h1>")
        appendHTMLEscaped(table.title, controls: .htmlSpan, to: &out)
        out.write("</h1>\n<p class=\"description\">")
        appendHTMLEscaped(table.description, controls: .htmlSpan, to: &out)
        out.write("</p>\n")
        // Defaults (1970-01-01 … 9999-12-31, none) say nothing a reader needs: only the values asked for are shown.
        let given = table.parameters.filter { !$0.isDefault }
        if !given.isEmpty {
            out.write("<p class=\"meta\">Parameters: ")
            for (index, parameter) in given.enumerated() {
                if index > 0 { out.write(", ") }
                out.write("<code>")
                appendHTMLEscaped(parameter.name, controls: .htmlSpan, to: &out)
                out.write("</code> = ")
                if let value = parameter.value {
                    out.write("<code>")
                    appendHTMLEscaped(value, controls: .htmlSpan, to: &out)
                    out.write("</code>")
                } else {
                    out.write("<em>(none)</em>")
                }
            }
            out.write("</p>\n")
        }
        out.write("<p class=\"meta\">Generated ")
        appendHTMLEscaped(table.generatedAt, controls: .htmlSpan, to: &out)
        out.write(" · \(rowCount(table.rows.count))</p>\n</header>\n")

        guard !table.rows.isEmpty, !table.columns.isEmpty else {
            out.write("<p class=\"empty\">No rows.</p>\n</main>\n</body>\n</html>\n")
            return out.bytes
        }
        if let chart { appendChart(table, spec: chart, to: &out) }
        if let totals = ReportTotals(table) { appendTotals(totals, to: &out) }
        appendHTMLTable(table, to: &out)
        for (index, section) in table.sections.enumerated() {
            appendSection(section, tableClass: "section-\(index + 1)", to: &out)
        }
        out.write("</main>\n</body>\n</html>\n")
        return out.bytes
    }

    /// A further table on the page: its title as a heading, its description, and its rows (no chart, no totals).
    private static func appendSection(_ section: ReportTable, tableClass: String, to out: inout RenderBuffer) {
        appendElement("<h2 class=\"section\">", section.title, "</h2>\n", to: &out)
        appendElement("<p class=\"description\">", section.description, "</p>\n", to: &out)
        guard !section.rows.isEmpty, !section.columns.isEmpty else {
            out.write("<p class=\"empty\">No rows.</p>\n")
            return
        }
        appendHTMLTable(section, tableClass: tableClass, to: &out)
    }

    static func appendChart(_ table: ReportTable, spec: ChartSpec, to out: inout RenderBuffer) {
        switch SVGChart.draw(table, spec: spec) {
        case .drawn(let svg, let notes):
            if spec.kind == .waterfall {
                // A waterfall's labelled steps stay readable on a phone: the chart keeps a width and scrolls sideways.
                out.write(waterfallStylesheet)
                out.write("<figure class=\"chart wide\">\n")
            } else {
                out.write("<figure class=\"chart\">\n")
            }
            out += svg
            if !notes.isEmpty {
                out.write("<figcaption>")
                appendHTMLEscaped(notes.joined(separator: " "), controls: .htmlSpan, to: &out)
                out.write("</figcaption>\n")
            }
            out.write("</figure>\n")
        case .omitted(let reason):
            out.write("<p class=\"note\">No chart: ")
            appendHTMLEscaped(reason, controls: .htmlSpan, to: &out)
            out.write(".</p>\n")
        }
    }

    /// A waterfall's value labels, and its width on a phone; only pages with one carry it.
    static let waterfallStylesheet = """
        <style>
        .chart text.value { font-size: 12px; font-variant-numeric: tabular-nums; }
        @media (max-width: 600px) { figure.chart.wide { overflow-x: auto; } figure.chart.wide svg { min-width: 860px; } }
        </style>

        """

    /// The totals per currency (every row, also those past the page's row limit) and of the units, above the table.
    private static func appendTotals(_ totals: ReportTotals, to out: inout RenderBuffer) {
        out.write("<h2 class=\"totals\">Totals</h2>\n")
        if !totals.units.isEmpty {
            out.write("<p class=\"meta\">")
            for (index, unit) in totals.units.enumerated() {
                if index > 0 { out.write(" · ") }
                appendHTMLEscaped(SitePage.readableName(unit.name), controls: .htmlSpan, to: &out)
                out.write(" <strong class=\"num\">")
                appendHTMLEscaped(unit.sum, to: &out)
                out.write("</strong>")
            }
            out.write("</p>\n")
        }
        guard !totals.currencies.isEmpty else { return }
        out.write(
            "<div class=\"table-wrap totals cards\">\n<table class=\"totals cards\">\n<thead>\n"
                + "<tr><th scope=\"col\">currency</th>")
        for column in totals.amountColumns {
            out.write("<th scope=\"col\" class=\"num\">")
            appendHTMLEscaped(SitePage.readableName(column), controls: .htmlSpan, to: &out)
            out.write("</th>")
        }
        out.write("</tr>\n</thead>\n<tbody>\n")
        // A few rows: each cell carries its card label.
        let labels = totals.amountColumns.map { column in
            var label = RenderBuffer()
            appendHTMLEscaped(SitePage.readableName(column), to: &label)
            return " data-label=\"" + String(decoding: label.bytes, as: UTF8.self) + "\""
        }
        for total in totals.currencies {
            out.write("<tr><td class=\"date\" data-label=\"currency\">")
            appendHTMLEscaped(total.currency, controls: .htmlSpan, to: &out)
            out.write("</td>")
            for (index, column) in totals.amountColumns.enumerated() {
                guard let sum = total.sums[column] else {
                    out.write("<td class=\"null\"\(labels[index])></td>")
                    continue
                }
                out.write("<td class=\"num\"\(labels[index])>")
                appendHTMLEscaped(sum, to: &out)
                out.write("</td>")
            }
            out.write("</tr>\n")
        }
        out.write("</tbody>\n</table>\n</div>\n")
    }

    /// The table; `tableClass` names it for its card labels (`cardLabels`), `report` for the page's own.
    private static func appendHTMLTable(_ table: ReportTable, tableClass: String = "report", to out: inout RenderBuffer)
    {
        let shown = min(table.rows.count, htmlRowLimit)
        if shown < table.rows.count {
            let omitted = table.rows.count - shown
            out.write("<p class=\"note\">Showing the first \(grouped(shown)) of \(grouped(table.rows.count)) rows; ")
            out.write("\(rowCount(omitted)) omitted. The CSV and JSON formats contain every row.</p>\n")
        }
        out.write("<div class=\"table-wrap cards\">\n<table class=\"\(tableClass) cards\">\n<thead>\n<tr>")
        for column in table.columns {
            // A heading people read: `recorded_units` as "recorded units"; CSV and JSON keep the column's name.
            out.write(column.kind.isNumeric ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">")
            appendHTMLEscaped(heading(column.name), controls: .htmlSpan, to: &out)
            out.write("</th>")
        }
        out.write("</tr>\n</thead>\n<tbody>\n")
        let classes = table.columns.map { column -> String in
            switch column.kind {
            case .integer, .decimal: "<td class=\"num\">"
            case .json: "<td class=\"json\">"
            // A date breaks at its hyphens in a narrow column ("2014-" over "03-01"): dates keep to one line.
            case .date, .timestamp: "<td class=\"date\">"
            default: "<td>"
            }
        }
        let links = table.columns.map { table.cellLinks[$0.name] }
        let rowLinks = table.columns.map { table.rowLinks[$0.name] }
        for (rowIndex, row) in table.rows.prefix(shown).enumerated() {
            out.write("<tr>")
            for (index, column) in table.columns.enumerated() {
                guard let value = cell(row, index) else {
                    // The NULL marker comes from the stylesheet, so it is not copied with the table text.
                    out.write("<td class=\"null\"></td>")
                    continue
                }
                // A day in a text column (a period, a time) keeps to one line like a date column's (a browser
                // breaks `2014-03-01` at its hyphens), and so does a short single word (a status, an id):
                // `missing-in-report` never breaks at its hyphens. A long unbroken value (a hash, a uuid) may wrap
                // anywhere, so that a wide table still fits its page.
                if column.kind == .text && (startsWithDay(value) || isShortWord(value)) {
                    out.write("<td class=\"nowrap\">")
                } else if column.kind == .text && isLongToken(value) {
                    out.write("<td class=\"token\">")
                } else {
                    out.write(classes[index])
                }
                let href = links[index]?[value] ?? rowLinks[index]?[rowIndex]
                if let href {
                    out.write("<a href=\"")
                    appendHTMLEscaped(href, to: &out)
                    out.write("\">")
                }
                appendHTMLEscaped(displayText(value, kind: column.kind), controls: .htmlSpan, to: &out)
                if href != nil { out.write("</a>") }
                out.write("</td>")
            }
            out.write("</tr>\n")
        }
        out.write("</tbody>\n</table>\n</div>\n")
    }

    /// Whether `value` is a short text that begins with a `YYYY-MM-DD` day (`2014-03-01`, `2014-03-01 – 2014-03-07`).
    static func startsWithDay(_ value: String) -> Bool {
        let bytes = value.utf8
        guard bytes.count >= 10, bytes.count <= 32 else { return false }
        for (offset, byte) in bytes.prefix(10).enumerated() {
            let isDash = offset == 4 || offset == 7
            guard isDash ? byte == UInt8(ascii: "-") : (byte >= 48 && byte <= 57) else { return false }
        }
        return true
    }

    /// A column name as a heading: `first_purchase_utc` as "first purchase (UTC)".
    static func heading(_ name: String) -> String {
        let words = SitePage.readableName(name)
        return words.hasSuffix(" utc") ? words.dropLast(4) + " (UTC)" : words
    }

    /// Whether `value` is one short word (no space, at most 24 bytes).
    static func isShortWord(_ value: String) -> Bool {
        value.utf8.count <= 24 && !value.utf8.contains(UInt8(ascii: " "))
    }

    /// Whether `value` is one long word (no space, more than 24 bytes): a hash, a uuid, a long product id.
    static func isLongToken(_ value: String) -> Bool {
        value.utf8.count > 24 && !value.utf8.contains(UInt8(ascii: " "))
    }

    /// How an invisible control in a value is shown.
    enum ControlMarkup {
        /// As the plain marker `⟨U+202E⟩`: for attributes, `<title>` and tooltips, which take no markup.
        case plain
        /// As `<span class="control" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>`, in HTML content.
        case htmlSpan
        /// As `<tspan class="control">⟨U+202E⟩</tspan>`, inside an SVG `<text>`.
        case svgTSpan
    }

    /// Escapes `& < > " '` so text is safe both between tags and inside quoted attributes.
    ///
    /// Invisible controls become plain `⟨U+202E⟩` markers, so no value can reorder or hide text anywhere on the page.
    static func appendHTMLEscaped(_ text: String, to out: inout RenderBuffer) {
        appendHTMLEscaped(text, controls: .plain, to: &out)
    }

    /// Escapes `text` for HTML, showing invisible controls as `controls` says.
    static func appendHTMLEscaped(_ text: String, controls: ControlMarkup, to out: inout RenderBuffer) {
        // Most values (ids, hashes, dates, numbers) are printable ASCII with nothing to escape: copied as they are.
        if text.utf8.allSatisfy(isPlainASCII) {
            out.append(contentsOf: text.utf8)
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.write("&amp;")
            case "<": out.write("&lt;")
            case ">": out.write("&gt;")
            case "\"": out.write("&quot;")
            case "'": out.write("&#39;")
            case _ where isInvisibleControl(scalar):
                switch controls {
                case .plain:
                    out.write(controlMarker(scalar))
                case .htmlSpan:
                    out.write("<span class=\"control\" title=\"\(controlDescription(scalar))\">")
                    out.write(controlMarker(scalar))
                    out.write("</span>")
                case .svgTSpan:
                    out.write("<tspan class=\"control\">\(controlMarker(scalar))</tspan>")
                }
            case _ where scalar.isASCII:
                out.append(UInt8(truncatingIfNeeded: scalar.value))
            default:
                if let encoded = UTF8.encode(scalar) { out.append(contentsOf: encoded) }
            }
        }
    }

    /// A printable ASCII byte that HTML shows as it is.
    private static func isPlainASCII(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): false
        case 0x20..<0x7F, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }

    /// System fonts, zebra rows, a sticky header, right-aligned numbers, and colours that follow the dark mode setting.
    ///
    /// Every value is its own bidi island (`unicode-bidi: plaintext` is `<bdi>`: isolated, direction from its first
    /// strong letter), so a right-to-left product title reads right to left and cannot reorder the text after it.
    /// Invisible controls are shown as `.control` markers, so a spoofed id stands out.
    static let stylesheet = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0;
          --zebra: #f6f8fa; --head: #eaeef2; --note-bg: #fff8c5; --note-line: #d4a72c;
          --control-fg: #a40e26; --control-bg: #ffebe9; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d;
            --zebra: #151b23; --head: #212830; --note-bg: #272115; --note-line: #9e6a03;
            --control-fg: #ffa198; --control-bg: #490202; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 24px; background: var(--bg); color: var(--fg);
          font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial,
            sans-serif; }
        main { max-width: 1400px; margin: 0 auto; }
        h1 { font-size: 1.6em; margin: 0 0 0.4em; }
        .description { margin: 0 0 0.6em; max-width: 80ch; }
        h2.totals { font-size: 1.1em; margin: 1.2em 0 0.3em; }
        .table-wrap.totals { display: inline-block; max-width: 100%; margin-top: 0.3em; }
        .meta { color: var(--muted); margin: 0.2em 0; }
        code, td.json { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
        .note { background: var(--note-bg); border-left: 4px solid var(--note-line); padding: 0.5em 0.8em; }
        .empty { font-style: italic; color: var(--muted); margin: 1.5em 0; }
        figure.chart { margin: 1.5em 0; }
        figure.chart svg { display: block; width: 100%; height: auto; }
        figure.chart figcaption { color: var(--muted); font-size: 0.9em; }
        .chart text { fill: currentColor; font-size: 11px; }
        .chart .grid line { stroke: var(--line); stroke-width: 1; }
        .chart .axis { stroke: var(--muted); stroke-width: 1; }
        .chart .zero { stroke: var(--fg); stroke-width: 1.5; }
        .chart .series-line { fill: none; stroke-width: 2; }
        .chart .axis-break { stroke: var(--fg); stroke-width: 1.5; fill: none; }
        .chart .axis-gap { stroke: var(--muted); stroke-width: 1; stroke-dasharray: 3 3; }
        .table-wrap { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; margin: 1em 0; }
        table { border-collapse: separate; border-spacing: 0; width: 100%; }
        th, td { padding: 4px 10px; text-align: left; vertical-align: top; border-bottom: 1px solid var(--line);
          white-space: pre-wrap; }
        thead th { position: sticky; top: 0; background: var(--head); font-weight: 600; white-space: normal;
          vertical-align: bottom; min-width: 5ch; }
        tbody tr:nth-child(even) { background: var(--zebra); }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.date, td.nowrap { white-space: nowrap; }
        td, th, .meta code { unicode-bidi: plaintext; }
        .control { color: var(--control-fg); background: var(--control-bg); border-radius: 3px; padding: 0 2px;
          font: 0.85em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
        .chart .control { fill: var(--control-fg); }
        nav.crumbs { margin: 0 0 0.8em; color: var(--muted); }
        a { color: #0969da; }
        @media (prefers-color-scheme: dark) { a { color: #4493f8; } }
        @media print { .table-wrap { overflow: visible; } }
        @media (max-width: 600px) { body { padding: 12px; } th, td { padding: 3px 6px; } }

        """

    /// Everything before a page's content, through `<main>`: the doctype, the policy that lets a page neither run
    /// script nor load anything (defence in depth, should a value slip past escaping), the title and the style.
    static func appendDocumentHead(title: String, style: String, to out: inout RenderBuffer) {
        out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        out.write("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
        out.write("style-src 'unsafe-inline'; img-src data:\">\n")
        out.write("<meta name=\"referrer\" content=\"no-referrer\">\n")
        out.write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        out.write("<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
        appendHTMLEscaped(title, to: &out)
        out.write("</title>\n<style>\n\(style)</style>\n</head>\n<body>\n<main>\n")
    }

    /// `text`, escaped and with its bidi controls shown, between `open` (a start tag) and `close`.
    static func appendElement(_ open: String, _ text: String, _ close: String, to out: inout RenderBuffer) {
        out.write(open)
        appendHTMLEscaped(text, controls: .htmlSpan, to: &out)
        out.write(close)
    }
}
