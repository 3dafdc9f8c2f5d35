import Testing

@testable import Reports

@Suite struct ReportMarkdownTests {
    @Test func writesTitleDescriptionAndAlignedTable() {
        let text = ReportFixtures.render(ReportFixtures.variance, .md)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[0] == "# Variance")
        #expect(lines[2] == "Units recorded minus units reported, per day.")
        #expect(lines[4] == "Generated 2014-03-02 10:11:12+00 · Parameters: since = 2014-03-01, app = (none) · 5 rows")
        #expect(lines[6] == "| day | currency | variance |")
        #expect(lines[7] == "| --- | --- | ---: |")
        #expect(lines[8] == "| 2014-03-01 | USD | 12.50 |")
        #expect(ReportFixtures.count("\n| ", in: text) == 1 + 1 + 5)  // header, alignment row, rows
    }

    @Test func escapesTableBreakingAndHTMLCharacters() {
        let table = ReportFixtures.table(
            columns: [ReportColumn(name: "a|b", kind: .text), ReportColumn(name: "ok", kind: .boolean)],
            rows: [
                ["x | y \\ z", "t"],
                ["line1\nline2\r\nline3\rline4", "f"],
                ["<script>alert(1)</script> & <b>", nil],
                ["*bold* _em_ `code` [link](javascript:x) ~~s~~ #", "t"],
            ],
            title: "<img src=x onerror=alert(1)>")
        let text = ReportFixtures.render(table, .md)
        #expect(text.hasPrefix("# &lt;img src=x onerror=alert(1)&gt;\n"))
        #expect(text.contains("| a\\|b | ok |"))
        #expect(text.contains("| x \\| y \\\\ z | true |"))
        #expect(text.contains("| line1<br>line2<br>line3<br>line4 | false |"))
        #expect(text.contains("| &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt; |  |"))
        #expect(text.contains("| \\*bold\\* \\_em\\_ \\`code\\` \\[link\\](javascript:x) \\~\\~s\\~\\~ \\# | true |"))
        #expect(!text.contains("<script"))
        // Every table line has exactly one more unescaped pipe than columns.
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            #expect(line.replacing("\\|", with: "").filter { $0 == "|" }.count == 3, "\(line)")
        }
    }

    @Test func headingsReadAsTheHTMLPagesDo() {
        let table = ReportFixtures.table(
            columns: [
                ReportColumn(name: "recorded_units", kind: .integer),
                ReportColumn(name: "first_purchase_utc", kind: .text),
                ReportColumn(name: "customerPrice", kind: .decimal),
            ],
            rows: [["1", "2014-03-01 10:00:00", "0.99"]])
        let lines = ReportFixtures.render(table, .md).split(separator: "\n")
        #expect(lines.contains("| recorded units | first purchase (UTC) | customer price |"))
        #expect(lines.contains("| 1 | 2014-03-01 10:00:00 | 0.99 |"))
    }

    @Test func saysNoRowsForEmptyResult() {
        let table = ReportFixtures.table(columns: ReportFixtures.variance.columns, rows: [])
        let text = ReportFixtures.render(table, .md)
        #expect(text.hasSuffix("· 0 rows\n\nNo rows.\n"))
        #expect(!text.contains("---"))
    }
}
