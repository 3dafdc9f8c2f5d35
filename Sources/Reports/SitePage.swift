/// One page of a run's report site (`index.html`, the flags page, a page per flagged subject): a self-contained HTML
/// file in the reports' style, no scripts, every value escaped and shown with its invisible controls visible.
///
/// Links are relative paths the caller built from names it chose (never from input text), and are escaped as
/// attribute values all the same.
package struct SitePage: Sendable {
    /// What one table cell or fact holds.
    package enum Cell: Sendable, Equatable {
        /// Plain text; wraps when long.
        case text(String)
        /// Text in a monospaced font (ids, hashes, paths); wraps anywhere when long.
        case code(String)
        /// A short name in a monospaced font (a rule, a reason code, a status) that never breaks.
        case name(String)
        /// A number, right-aligned in tables.
        case number(String)
        /// A link to another page of the site.
        case link(String, href: String, isCode: Bool)
        /// A JSON value shown as a nested list.
        case evidence(EvidenceValue)
        /// Several cells, one after another (e.g. a list of linked ids).
        case cells([Cell])
        /// SQL NULL or a missing value.
        case empty
    }

    /// One part of the page, in order.
    package enum Block: Sendable {
        /// A section heading.
        case heading(String)
        /// A paragraph of text.
        case paragraph(String)
        /// A paragraph that is a sequence of cells (text and links).
        case line([Cell])
        /// Name–value pairs.
        case facts([(name: String, value: Cell)])
        /// A table with a header row; `numeric` marks right-aligned columns.
        case table(columns: [String], rows: [[Cell]])
        /// A highlighted note.
        case note(String)
        /// The report's chart of `table`, drawn as the report pages draw it.
        case chart(ReportTable, ChartSpec)
        /// A form: only the live pages of `iap-audit serve` have them (`SiteForm`).
        case form(SiteForm)
    }

    /// The page title (also the `<h1>`).
    package var title: String
    /// A sentence under the title.
    package var description: String
    /// Links back up the site (e.g. to the index and the flags page), shown above the title.
    package var breadcrumbs: [(text: String, href: String)]
    /// The page body.
    package var blocks: [Block]

    /// Creates a page.
    package init(
        title: String, description: String, breadcrumbs: [(text: String, href: String)] = [], blocks: [Block] = []
    ) {
        self.title = title
        self.description = description
        self.breadcrumbs = breadcrumbs
        self.blocks = blocks
    }

    /// The page as the bytes of an HTML file.
    package func html() -> [UInt8] {
        var out = RenderBuffer()
        // The forms' style only where there are forms: the written site's pages stay byte for byte as they were.
        let hasForm = blocks.contains { if case .form = $0 { true } else { false } }
        ReportRenderer.appendDocumentHead(
            title: title,
            style: ReportRenderer.stylesheet + ReportRenderer.cardStylesheet + Self.stylesheet
                + (hasForm ? SiteForm.stylesheet : ""), to: &out)
        if !breadcrumbs.isEmpty {
            out.write("<nav class=\"crumbs\">")
            for (index, crumb) in breadcrumbs.enumerated() {
                if index > 0 { out.write(" › ") }
                Self.appendLink(crumb.text, href: crumb.href, isCode: false, to: &out)
            }
            out.write("</nav>\n")
        }
        ReportRenderer.appendElement("<header>\n<h1>", title, "</h1>\n", to: &out)
        ReportRenderer.appendElement("<p class=\"description\">", description, "</p>\n</header>\n", to: &out)
        for block in blocks { Self.append(block, to: &out) }
        out.write("</main>\n</body>\n</html>\n")
        return out.bytes
    }

    private static func append(_ block: Block, to out: inout RenderBuffer) {
        switch block {
        case .heading(let text):
            ReportRenderer.appendElement("<h2>", text, "</h2>\n", to: &out)
        case .paragraph(let text):
            ReportRenderer.appendElement("<p>", text, "</p>\n", to: &out)
        case .line(let cells):
            out.write("<p>")
            for cell in cells { appendCell(cell, to: &out) }
            out.write("</p>\n")
        case .chart(let table, let spec):
            ReportRenderer.appendChart(table, spec: spec, to: &out)
        case .form(let form):
            form.append(to: &out)
        case .note(let text):
            ReportRenderer.appendElement("<p class=\"note\">", text, "</p>\n", to: &out)
        case .facts(let facts):
            out.write("<dl class=\"facts\">\n")
            for fact in facts {
                ReportRenderer.appendElement("<dt>", fact.name, "</dt><dd>", to: &out)
                appendCell(fact.value, to: &out)
                out.write("</dd>\n")
            }
            out.write("</dl>\n")
        case .table(let columns, let rows):
            guard !rows.isEmpty else {
                out.write("<p class=\"empty\">None.</p>\n")
                return
            }
            let numeric = columns.indices.map { column in
                rows.allSatisfy { row in
                    guard column < row.count else { return true }
                    if case .number = row[column] { return true }
                    return row[column] == .empty
                }
            }
            out.write("<div class=\"table-wrap site cards\">\n<table class=\"site cards\">\n<thead>\n<tr>")
            for (index, column) in columns.enumerated() {
                let open = numeric[index] ? "<th scope=\"col\" class=\"num\">" : "<th scope=\"col\">"
                ReportRenderer.appendElement(open, column, "</th>", to: &out)
            }
            out.write("</tr>\n</thead>\n<tbody>\n")
            // Each cell names its column, for the narrow layout that shows a row as a card of labelled lines
            // (`ReportRenderer.cardStylesheet`).
            var labels: [String] = []
            for column in columns {
                var label = RenderBuffer()
                ReportRenderer.appendHTMLEscaped(column, to: &label)
                labels.append(" data-label=\"" + String(decoding: label.bytes, as: UTF8.self) + "\"")
            }
            for row in rows {
                out.write("<tr>")
                for index in columns.indices {
                    let cell = index < row.count ? row[index] : .empty
                    switch cell {
                    case .empty: out.write("<td class=\"null\"\(labels[index])></td>")
                    case .number: out.write("<td class=\"num\"\(labels[index])>")
                    // Evidence is a nested list: on a card it goes under its label, the card's whole width.
                    case .evidence: out.write("<td class=\"block\"\(labels[index])>")
                    // A day, a status or an id keeps to one line.
                    case .text(let text) where ReportRenderer.startsWithDay(text) || ReportRenderer.isShortWord(text):
                        out.write("<td class=\"nowrap\"\(labels[index])>")
                    default: out.write("<td\(labels[index])>")
                    }
                    if cell != .empty {
                        appendCell(cell, to: &out)
                        out.write("</td>")
                    }
                }
                out.write("</tr>\n")
            }
            out.write("</tbody>\n</table>\n</div>\n")
        }
    }

    private static func appendCell(_ cell: Cell, to out: inout RenderBuffer) {
        switch cell {
        case .text(let text), .number(let text):
            ReportRenderer.appendHTMLEscaped(text, controls: .htmlSpan, to: &out)
        case .code(let text):
            ReportRenderer.appendElement("<code>", text, "</code>", to: &out)
        case .name(let text):
            ReportRenderer.appendElement("<code class=\"name\">", text, "</code>", to: &out)
        case .link(let text, let href, let isCode):
            appendLink(text, href: href, isCode: isCode, to: &out)
        case .evidence(let value):
            appendEvidence(value, to: &out)
        case .cells(let cells):
            for (index, cell) in cells.enumerated() {
                if index > 0 { out.write(" ") }
                appendCell(cell, to: &out)
            }
        case .empty:
            out.write("<span class=\"none\">none</span>")
        }
    }

    private static func appendLink(_ text: String, href: String, isCode: Bool, to out: inout RenderBuffer) {
        out.write("<a href=\"")
        ReportRenderer.appendHTMLEscaped(href, to: &out)
        out.write(isCode ? "\"><code>" : "\">")
        ReportRenderer.appendHTMLEscaped(text, controls: .htmlSpan, to: &out)
        out.write(isCode ? "</code></a>" : "</a>")
    }

    /// Objects as definition lists, arrays as bullet lists, scalars as text: evidence a person can read.
    private static func appendEvidence(_ value: EvidenceValue, to out: inout RenderBuffer) {
        switch value {
        case .null:
            out.write("<span class=\"none\">none</span>")
        case .scalar(let text):
            out.write("<span class=\"value\">")
            ReportRenderer.appendHTMLEscaped(text, controls: .htmlSpan, to: &out)
            out.write("</span>")
        case .list(let values):
            if values.isEmpty {
                out.write("<span class=\"none\">none</span>")
                return
            }
            if values.allSatisfy({ $0.text != nil }) {
                // A list of ids reads best inline, comma-separated, wrapping as needed.
                out.write("<span class=\"value\">")
                for (index, item) in values.enumerated() {
                    if index > 0 { out.write(", ") }
                    ReportRenderer.appendHTMLEscaped(item.text ?? "", controls: .htmlSpan, to: &out)
                }
                out.write("</span>")
                return
            }
            out.write("<ul class=\"evidence\">")
            for item in values {
                out.write("<li>")
                appendEvidence(item, to: &out)
                out.write("</li>")
            }
            out.write("</ul>")
        case .object(let members):
            if members.isEmpty {
                out.write("<span class=\"none\">none</span>")
                return
            }
            out.write("<dl class=\"evidence\">")
            for member in members {
                out.write("<dt>")
                ReportRenderer.appendHTMLEscaped(readableName(member.name), controls: .htmlSpan, to: &out)
                out.write("</dt><dd>")
                appendEvidence(member.value, to: &out)
                out.write("</dd>")
            }
            out.write("</dl>")
        }
    }

    /// `store_account_key` as `store account key`, `windowDays` as `window days`.
    package static func readableName(_ name: String) -> String {
        // Evidence keys are ASCII: byte by byte, without the Unicode properties a Character would look up.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(name.utf8.count + 4)
            for byte in name.utf8 {
                if byte == UInt8(ascii: "_") {
                    bytes.append(UInt8(ascii: " "))
                } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"), let last = bytes.last,
                    last >= UInt8(ascii: "a") && last <= UInt8(ascii: "z")
                {
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(byte + 32)
                } else {
                    bytes.append(byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var result = ""
        for character in name {
            if character == "_" {
                result.append(" ")
            } else if character.isUppercase, let last = result.last, last.isLowercase {
                result.append(" ")
                result.append(contentsOf: character.lowercased())
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// What the site pages add to the reports' stylesheet: navigation, facts, readable evidence, wrapping cells.
    static let stylesheet = """
        h1 { overflow-wrap: anywhere; }
        h2 { font-size: 1.2em; margin: 1.4em 0 0.4em; border-bottom: 1px solid var(--line); padding-bottom: 0.2em; }
        dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 16px; margin: 0.6em 0; }
        dl.facts dt { color: var(--muted); }
        dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
        table.site { table-layout: auto; }
        .table-wrap.site { max-height: none; }
        code.name { white-space: nowrap; }
        table.site td { white-space: normal; overflow-wrap: anywhere; min-width: 6ch; }
        table.site td.num { white-space: nowrap; min-width: 0; }
        table.site td code { overflow-wrap: normal; }
        dl.facts code { overflow-wrap: anywhere; }
        dl.evidence { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0 10px; margin: 0; }
        dl.evidence dt { color: var(--muted); }
        dl.evidence dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
        ul.evidence { margin: 0; padding-left: 1.2em; }
        .value, dd, a { unicode-bidi: plaintext; }
        .none { color: var(--muted); font-style: italic; }
        table.site td.nowrap { white-space: nowrap; overflow-wrap: normal; }
        @media (max-width: 600px) {
          dl.evidence { display: block; }
          dl.evidence dd { margin-left: 12px; }
          /* A 64-digit digest in a card is wider than a phone: break it anywhere rather than scroll the page. */
          table.site td code { overflow-wrap: anywhere; }
        }

        """
}
