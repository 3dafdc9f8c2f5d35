import Foundation
import Testing

@testable import Reports

/// The console's additions to site pages: forms, escaped like every cell, and the JSON view of a page.
struct SitePageFormAndJSONTests {
    static let hostile = "\"><script>alert(1)</script>\u{202E}"

    @Test func formValuesAndLabelsAreEscaped() {
        let page = SitePage(
            title: "t", description: "d",
            blocks: [
                .form(
                    SiteForm(
                        action: "/flags/flag-1/decide", isPost: true,
                        fields: [
                            .hidden(name: "action", value: "dismiss"),
                            .text(name: "analyst", label: Self.hostile, value: Self.hostile),
                            .select(
                                name: "reason", label: "Reason", options: [("a\"b", Self.hostile)], selected: "a\"b"),
                        ], submit: "Dismiss"))
            ])
        let html = String(decoding: page.html(), as: UTF8.self)
        #expect(!html.contains("<script>"))
        #expect(html.contains("<form class=\"site\" method=\"post\" action=\"/flags/flag-1/decide\">"))
        #expect(html.contains("value=\"&quot;&gt;&lt;script&gt;"))
        #expect(html.contains("<option value=\"a&quot;b\" selected>"))
        #expect(html.contains("form.site {"), "a page with a form carries the forms' style")
        let plain = String(decoding: SitePage(title: "t", description: "d").html(), as: UTF8.self)
        #expect(!plain.contains("form.site"), "a written site page stays as it was")
    }

    @Test func aPageAsJSONParsesAndKeepsItsCells() throws {
        let page = SitePage(
            title: Self.hostile, description: "line\nbreak\u{2028}",
            blocks: [
                .heading("Decisions"),
                .table(
                    columns: ["Flag", "Evidence"],
                    rows: [
                        [
                            .link("7", href: "flags/flag-7.html", isCode: true),
                            .evidence(.object([.init(name: "n", value: .list([.scalar("1"), .null]))])),
                        ],
                        [.empty, .cells([.text("a"), .code("b")])],
                    ]),
                .form(SiteForm(action: "/search", isPost: true, fields: [], submit: "Find")),
                .facts([("Status", .name("dismissed"))]),
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(page.json())) as? [String: Any])
        #expect(object["title"] as? String == Self.hostile)
        #expect(object["description"] as? String == "line\nbreak\u{2028}")
        let blocks = try #require(object["blocks"] as? [[String: Any]])
        #expect(blocks.count == 3, "the form is left out")
        let table = try #require(blocks[1]["table"] as? [String: Any])
        let rows = try #require(table["rows"] as? [[Any]])
        #expect((rows[0][0] as? [String: String]) == ["text": "7", "href": "flags/flag-7.html"])
        #expect(((rows[0][1] as? [String: Any])?["n"] as? [Any])?.count == 2)
        #expect(rows[1][0] is NSNull)
        #expect((blocks[2]["facts"] as? [String: String]) == ["Status": "dismissed"])
    }
}
