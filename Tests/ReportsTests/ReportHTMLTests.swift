import Testing

@testable import Reports

@Suite struct ReportHTMLTests {
    static let hostileTable = ReportFixtures.table(
        columns: [
            ReportColumn(name: "product<script>", kind: .text), ReportColumn(name: "units", kind: .integer),
            ReportColumn(name: "day", kind: .text),
        ],
        rows: ReportFixtures.hostileValues.enumerated().map { [$0.element, String($0.offset - 1), $0.element] },
        title: "Flags <script>alert('t')</script>",
        description: "\"onmouseover=alert(1) ' & more"
    )

    @Test func escapesHostileValuesEverywhere() {
        var table = Self.hostileTable
        table.parameters = [.init(name: "account", value: "<script>alert(2)</script>\"'")]
        table.generatedAt = "<b>now</b>"
        let html = ReportFixtures.render(table, .html, chart: ChartSpec(kind: .bar, x: "day", y: "units"))
        #expect(ReportFixtures.count("<script", in: html) == 0)
        #expect(ReportFixtures.count("<b>", in: html) == 0)
        #expect(!html.contains("\"onmouseover"))
        #expect(!html.contains("'; DROP"))
        #expect(html.contains("<title>Flags &lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;</title>"))
        #expect(html.contains("<h1>Flags &lt;script&gt;alert(&#39;t&#39;)&lt;/script&gt;</h1>"))
        #expect(html.contains("&quot;onmouseover=alert(1) &#39; &amp; more"))
        #expect(html.contains("<td class=\"token\">&lt;script&gt;alert(1)&lt;/script&gt;</td>"))
        #expect(html.contains("<td>&#39;; DROP TABLE x; --</td>"))
        #expect(html.contains("<td>&quot;onmouseover=alert(1) x=&quot;</td>"))
        #expect(html.contains("<th scope=\"col\">product&lt;script&gt;</th>"))
        #expect(html.contains("<code>&lt;script&gt;alert(2)&lt;/script&gt;&quot;&#39;</code>"))
        #expect(html.contains("&lt;b&gt;now&lt;/b&gt;"))
    }

    @Test func escapesHostileChartLabelsAndTooltips() throws {
        let html = ReportFixtures.render(
            Self.hostileTable, .html, chart: ChartSpec(kind: .bar, x: "day", y: "units", series: "product<script>"))
        let svg = try #require(Self.svg(in: html))
        #expect(svg.contains("<text class=\"tick-x\""))
        #expect(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(svg.contains("&#39;; DROP TABLE x; --"))
        #expect(svg.contains("aria-label=\"Bar chart of units by day, per product&lt;script&gt;\""))
        #expect(!svg.contains("<script"))
        #expect(!svg.contains("\"onmouseover"))
        #expect(ReportFixtures.count("<g class=\"legend-item\">", in: svg) == 4)
    }

    @Test func isOneSelfContainedPage() {
        let html = ReportFixtures.render(
            ReportFixtures.variance, .html, chart: ChartSpec(kind: .bar, x: "day", y: "variance", series: "currency"))
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(ReportFixtures.count("<style>", in: html) == 1)
        #expect(html.contains("prefers-color-scheme: dark"))
        #expect(html.contains("position: sticky"))
        for external in ["<script", "<link", "src=", "href=", "@import", "url(", "http://", "https://"] {
            #expect(!html.contains(external), "found \(external)")
        }
        #expect(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\""))
        #expect(
            html.contains(
                "Parameters: <code>since</code> = <code>2014-03-01</code>, <code>app</code> = <em>(none)</em>"))
        #expect(html.contains("Generated 2014-03-02 10:11:12+00 · 5 rows"))
    }

    @Test func listsEveryRowWithNumbersRightAlignedAndNullsMarked() throws {
        var table = ReportFixtures.variance
        table.rows.append(["2014-03-04", nil, nil])
        let html = ReportFixtures.render(table, .html)
        let body = try #require(html.split(separator: "<tbody>").last)
        #expect(ReportFixtures.count("<tr>", in: String(body)) == 6)
        #expect(ReportFixtures.count("<td class=\"num\">", in: String(body)) == 5)
        #expect(ReportFixtures.count("<td class=\"null\"></td>", in: html) == 2)
        #expect(html.contains("<th scope=\"col\" class=\"num\">variance</th>"))
        #expect(html.contains("<td class=\"num\">-4.25</td>"))
        // The chart comes before the table.
        let chartHTML = ReportFixtures.render(table, .html, chart: ChartSpec(kind: .line, x: "day", y: "variance"))
        let chartStart = try #require(chartHTML.firstRange(of: "<svg"))
        let tableStart = try #require(chartHTML.firstRange(of: "<table class=\"report cards\">"))
        #expect(chartStart.lowerBound < tableStart.lowerBound)
    }

    /// Wide, a long value wraps instead of pushing columns off the page; on a phone each row is a card whose lines
    /// are labelled with the headings, by one style rule per column (not a label in every cell), and a heading can
    /// end neither its CSS string nor the style element. What it looks like: Chromium screenshots (docs/reports.md).
    @Test func aPhoneShowsEachRowAsACardLabelledByItsHeadings() {
        let table = ReportFixtures.table(
            columns: [
                ReportColumn(name: "recorded_units", kind: .integer),
                ReportColumn(name: "first_purchase_utc", kind: .text), ReportColumn(name: "a\"b</style>", kind: .text),
            ],
            rows: [["1", "2014-03-01 10:00:00", String(repeating: "f", count: 71)]])
        let html = ReportFixtures.render(table, .html)
        #expect(html.contains("<div class=\"table-wrap cards\">\n<table class=\"report cards\">"))
        #expect(html.contains("table.report td:nth-child(1)::before { content: \"recorded units\"; }"))
        #expect(html.contains("table.report td:nth-child(2)::before { content: \"first purchase (UTC)\"; }"))
        #expect(html.contains("table.report td:nth-child(3)::before { content: \"a\\22 b\\3c \\2f style\\3e \"; }"))
        #expect(ReportFixtures.count("</style>", in: html) == 1)
        #expect(!html.contains(" data-label="))
        #expect(html.contains("<td class=\"token\">\(String(repeating: "f", count: 71))</td>"))
        #expect(html.contains("@media (max-width: 600px) {\n  .table-wrap.cards"))
        #expect(html.contains("table.cards thead { display: none; }"))
        #expect(html.contains("table.cards td.token { overflow-wrap: anywhere; min-width: 12ch; }"))
    }

    @Test func saysNoRowsAndDrawsNoChartForEmptyResult() {
        let table = ReportFixtures.table(columns: ReportFixtures.variance.columns, rows: [])
        let html = ReportFixtures.render(table, .html, chart: ChartSpec(kind: .bar, x: "day", y: "variance"))
        #expect(html.contains("<p class=\"empty\">No rows.</p>"))
        #expect(!html.contains("<svg"))
        #expect(!html.contains("<table"))
    }

    @Test func capsTheTableAndSaysHowManyRowsAreOmitted() {
        let rowCount = ReportRenderer.htmlRowLimit + 2_345
        let table = ReportFixtures.table(
            columns: [ReportColumn(name: "n", kind: .integer)], rows: (0..<rowCount).map { [String($0)] })
        let html = ReportFixtures.render(table, .html, chart: ChartSpec(kind: .bar, x: "n", y: "n"))
        #expect(ReportFixtures.count("<tr>", in: html) == ReportRenderer.htmlRowLimit + 1)
        #expect(html.contains("Showing the first 10,000 of 12,345 rows; 2,345 rows omitted."))
        #expect(html.contains("The CSV and JSON formats contain every row."))
        #expect(html.contains("12,345 rows are more than a chart can show"))
        #expect(!html.contains("<svg"))
        #expect(html.contains("<td class=\"num\">9999</td>"))
        #expect(!html.contains("<td class=\"num\">10000</td>"))
    }

    @Test func explainsAChartNamingAMissingColumn() {
        let html = ReportFixtures.render(
            ReportFixtures.variance, .html, chart: ChartSpec(kind: .bar, x: "date", y: "variance"))
        #expect(
            html.contains("<p class=\"note\">No chart: the result has no column &#39;date&#39; for the x axis.</p>"))
        #expect(html.contains("<table class=\"report cards\">"))
    }

    /// The `<svg>…</svg>` element of a page.
    static func svg(in html: String) -> String? {
        guard let start = html.firstRange(of: "<svg"), let end = html.firstRange(of: "</svg>") else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }
}
