import Testing

@testable import Reports

/// The report site's pages: evidence as readable lists, and the reports' escaping and bidi safety on every new part.
@Suite struct SitePageTests {
    static let hostile = "<script>alert(\"x\")</script>&'\u{202E}gpj.exe"
    static let marker = "<span class=\"control\" title=\"U+202E RIGHT-TO-LEFT OVERRIDE\">⟨U+202E⟩</span>"

    static func render(_ page: SitePage) -> String {
        String(decoding: page.html(), as: UTF8.self)
    }

    @Test func parsesEvidenceKeepingMemberOrderAndUnescapingStrings() throws {
        let value = try #require(
            EvidenceValue.parse(#"{"b": [1, "two", null, true], "a": {"x\"y": "\u00e9\n"}, "c": -1.5e3}"#))
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.name) == ["b", "a", "c"])
        #expect(value["b"] == .list([.scalar("1"), .scalar("two"), .null, .scalar("true")]))
        #expect(value["a"]?["x\"y"] == .scalar("é\n"))
        #expect(value["c"]?.text == "-1.5e3")
    }

    @Test func refusesTextThatIsNotJSONAndNestingTooDeepToWalk() {
        #expect(EvidenceValue.parse("{\"a\": 1") == nil)
        #expect(EvidenceValue.parse("[1, 2] trailing") == nil)
        #expect(EvidenceValue.parse("nul") == nil)
        #expect(EvidenceValue.parse(String(repeating: "[", count: 10_000)) == nil)
        #expect(EvidenceValue.parse("\"\\ud83d\\ude00\"") == .scalar("😀"))
        // Raw UTF-8 between escapes stays whole; a lone surrogate reads as U+FFFD.
        #expect(EvidenceValue.parse("\"é\\u00e9—\\t€\"") == .scalar("éé—\t€"))
        #expect(EvidenceValue.parse("\"\\ud800x\"") == .scalar("\u{FFFD}x"))
    }

    @Test func showsEvidenceAsADefinitionListNotAJSONCell() {
        let evidence = EvidenceValue.parse(#"{"store_accounts": ["sa-1", "sa-2"], "windowDays": 30}"#) ?? .null
        let html = Self.render(
            SitePage(
                title: "t", description: "d", blocks: [.table(columns: ["Evidence"], rows: [[.evidence(evidence)]])]))
        #expect(
            html.contains(
                "<dl class=\"evidence\"><dt>store accounts</dt><dd><span class=\"value\">sa-1, sa-2</span></dd>"))
        #expect(html.contains("<dt>window days</dt><dd><span class=\"value\">30</span></dd>"))
        #expect(!html.contains("{&quot;"))
    }

    @Test func escapesEveryValueOnAPageAndShowsControlsVisibly() {
        let evidence = EvidenceValue.object([
            .init(
                name: Self.hostile,
                value: .list([.scalar(Self.hostile), .object([.init(name: "k", value: .scalar(Self.hostile))])]))
        ])
        let page = SitePage(
            title: Self.hostile, description: Self.hostile,
            breadcrumbs: [(Self.hostile, "a\"b.html")],
            blocks: [
                .heading(Self.hostile), .paragraph(Self.hostile), .note(Self.hostile),
                .line([.text(Self.hostile), .link(Self.hostile, href: "x.html?\">", isCode: true)]),
                .facts([(Self.hostile, .code(Self.hostile))]),
                .table(
                    columns: [Self.hostile, "n"],
                    rows: [
                        [.evidence(evidence), .number("1")],
                        [.cells([.code(Self.hostile), .text(Self.hostile)]), .empty],
                    ]),
            ])
        let html = Self.render(page)
        #expect(!html.contains("<script"))
        #expect(!html.unicodeScalars.contains("\u{202E}"))
        #expect(!html.contains("\"\">"))
        #expect(html.contains("href=\"a&quot;b.html\""))
        #expect(html.contains("href=\"x.html?&quot;&gt;\""))
        #expect(
            html.contains("<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;\(Self.marker)gpj.exe</h1>"))
        #expect(
            html.contains("<title>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;⟨U+202E⟩gpj.exe</title>"))
        // Every value is isolated, so a right-to-left value cannot reorder the text around it.
        #expect(html.contains(".value, dd, a { unicode-bidi: plaintext; }"))
        // The page loads nothing and runs nothing, as the report pages.
        #expect(html.contains("default-src 'none'"))
        #expect(html.ranges(of: Self.marker).count >= 10)
    }

    @Test func readableNamesSplitSnakeAndCamelCase() {
        #expect(SitePage.readableName("store_account_key") == "store account key")
        #expect(SitePage.readableName("filesAlreadyIngested") == "files already ingested")
        // Keys outside ASCII take the Character path, and read the same way.
        #expect(SitePage.readableName("montantÉtéTotal") == "montant été total")
    }
}
