import Testing

@testable import Reports

/// Bidi and invisible controls in values: visible and isolated on pages people read, verbatim in data files.
@Suite struct ReportBidiTests {
    /// `com.example.‮exe.lmth`: shows as `com.example.html.exe` in a browser unless the override is neutralised.
    static let spoofedID = "com.example.\u{202E}exe.lmth"
    static let marker = "<span class=\"control\" title=\"U+202E RIGHT-TO-LEFT OVERRIDE\">⟨U+202E⟩</span>"

    static let spoofed = ReportFixtures.table(
        columns: [ReportColumn(name: "product_id", kind: .text), ReportColumn(name: "units", kind: .integer)],
        rows: [[spoofedID, "3"], ["<script>\u{202E}alert(1)</script>", "4"], ["שלום (2)", "5"]],
        title: "Flags \u{202E}txet"
    )

    @Test func showsARightToLeftOverrideVisiblyInEveryHTMLCellAndHeading() {
        var table = Self.spoofed
        table.parameters = [.init(name: "product", value: Self.spoofedID)]
        let html = ReportFixtures.render(table, .html)
        // A short single word keeps to one line; its control is shown all the same.
        #expect(html.contains("<td class=\"nowrap\">com.example.\(Self.marker)exe.lmth</td>"))
        #expect(html.contains("<code>com.example.\(Self.marker)exe.lmth</code>"))
        #expect(html.contains("<h1>Flags \(Self.marker)txet</h1>"))
        // <title> takes no markup, so it gets the plain marker.
        #expect(html.contains("<title>Flags ⟨U+202E⟩txet</title>"))
        #expect(!html.unicodeScalars.contains("\u{202E}"))
        // Natural right-to-left text is left alone: isolation is the stylesheet's job.
        #expect(html.contains("<td>שלום (2)</td>"))
    }

    @Test func isolatesEveryValueSoItCannotReorderWhatFollows() throws {
        let html = ReportFixtures.render(Self.spoofed, .html)
        let style = try #require(html.split(separator: "<style>").last?.split(separator: "</style>").first)
        let rule = try #require(style.split(separator: "\n").first { $0.contains("unicode-bidi") })
        for selector in ["td", "th", ".meta code"] {
            #expect(rule.contains(selector), "\(selector) is not isolated")
        }
        #expect(rule.contains("unicode-bidi: plaintext") || rule.contains("unicode-bidi: isolate"))
        #expect(style.contains(".control {"))
    }

    @Test func stillEscapesMarkupAroundControls() {
        let html = ReportFixtures.render(Self.spoofed, .html)
        // One long word: it may wrap anywhere (`token`), so a wide table still fits its page.
        #expect(html.contains("<td class=\"token\">&lt;script&gt;\(Self.marker)alert(1)&lt;/script&gt;</td>"))
        #expect(ReportFixtures.count("<script", in: html) == 0)
    }

    @Test func marksEveryInvisibleControlButKeepsTabsAndLineBreaks() {
        let controls: [Unicode.Scalar] = [
            "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
            "\u{200E}", "\u{200F}", "\u{061C}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{FEFF}", "\u{0000}", "\u{001B}",
            "\u{007F}", "\u{0085}", "\u{009F}",
        ]
        for scalar in controls {
            let value = "a" + String(scalar) + "b"
            #expect(ReportRenderer.isInvisibleControl(scalar), "\(ReportRenderer.codePoint(scalar))")
            var out = RenderBuffer()
            ReportRenderer.appendHTMLEscaped(value, controls: .htmlSpan, to: &out)
            let html = ReportFixtures.string(out.bytes)
            #expect(html.hasPrefix("a<span class=\"control\" title=\"\(ReportRenderer.codePoint(scalar)) "))
            #expect(html.hasSuffix(">⟨\(ReportRenderer.codePoint(scalar))⟩</span>b"))
        }
        #expect(ReportRenderer.controlDescription("\u{200D}") == "U+200D ZERO WIDTH JOINER")
        #expect(ReportRenderer.controlDescription("\u{1B}") == "U+001B CONTROL")
        for kept: Unicode.Scalar in ["\t", "\n", "\r", " ", "é", "\u{00A0}", "ش"] {
            #expect(!ReportRenderer.isInvisibleControl(kept), "\(ReportRenderer.codePoint(kept))")
        }
        var out = RenderBuffer()
        ReportRenderer.appendHTMLEscaped("a\tb\nc", controls: .htmlSpan, to: &out)
        #expect(ReportFixtures.string(out.bytes) == "a\tb\nc")
    }

    @Test func showsControlsAsPlainMarkersInMarkdown() {
        let text = ReportFixtures.render(Self.spoofed, .md)
        #expect(text.contains("| com.example.⟨U+202E⟩exe.lmth | 3 |"))
        #expect(text.contains("| &lt;script&gt;⟨U+202E⟩alert(1)&lt;/script&gt; | 4 |"))
        #expect(text.hasPrefix("# Flags ⟨U+202E⟩txet\n"))
        #expect(!text.unicodeScalars.contains("\u{202E}"))
    }

    @Test func keepsValuesVerbatimInCSVAndJSON() {
        let csv = ReportFixtures.render(Self.spoofed, .csv)
        #expect(csv.contains("\r\n\(Self.spoofedID),3\r\n"))
        let json = ReportFixtures.render(Self.spoofed, .json)
        #expect(json.contains("\"\(Self.spoofedID)\""))
        #expect(!csv.contains("U+202E") && !json.contains("U+202E"))
    }

    @Test func showsControlsInChartLabelsAndIsolatesTooltipValues() throws {
        let table = ReportFixtures.table(
            columns: [
                ReportColumn(name: "product_id", kind: .text), ReportColumn(name: "store", kind: .text),
                ReportColumn(name: "units", kind: .integer),
            ],
            rows: [[Self.spoofedID, "שלום", "3"], ["plain", "US", "4"]])
        let html = ReportFixtures.render(
            table, .html, chart: ChartSpec(kind: .bar, x: "product_id", y: "units", series: "store"))
        let svg = try #require(ReportHTMLTests.svg(in: html))
        // The x label is cut where the control sits, so its ellipsis is drawn as a control; the tooltip has it all.
        #expect(svg.contains(">com.ex<tspan class=\"control\">…</tspan>exe.lmth<title>"))
        #expect(svg.contains("<title>com.example.⟨U+202E⟩exe.lmth</title>"))
        #expect(svg.contains(">שלום</text>"))
        // A tooltip is plain text: the right-to-left series name sits between FSI and PDI, ASCII values stay bare.
        #expect(svg.contains("<title>\u{2068}com.example.⟨U+202E⟩exe.lmth\u{2069}, \u{2068}שלום\u{2069}: 3</title>"))
        #expect(svg.contains("<title>plain, US: 4</title>"))
        #expect(!svg.unicodeScalars.contains("\u{202E}"))
    }
}
