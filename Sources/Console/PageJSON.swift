internal import Reports

/// Every console page as JSON (`….json` beside `….html`), as Datasette offers: the page's title, description and
/// blocks, tables as column names and rows of cells, links as `{"text", "href"}`, evidence as nested JSON (its
/// scalars as strings, as the page shows them). Forms and charts are left out: a script reads the data and decides
/// with `iap-audit flags`.
enum PageJSON {
    static func render(_ page: SitePage) -> String {
        var out = "{\"title\":" + string(page.title) + ",\"description\":" + string(page.description) + ",\"blocks\":["
        out += page.blocks.compactMap(block).joined(separator: ",")
        return out + "]}\n"
    }

    private static func block(_ block: SitePage.Block) -> String? {
        switch block {
        case .heading(let text): return "{\"heading\":" + string(text) + "}"
        case .paragraph(let text), .note(let text): return "{\"text\":" + string(text) + "}"
        case .line(let cells): return "{\"line\":[" + cells.map(cell).joined(separator: ",") + "]}"
        case .facts(let facts):
            return "{\"facts\":{" + facts.map { string($0.name) + ":" + cell($0.value) }.joined(separator: ",") + "}}"
        case .table(let columns, let rows):
            return "{\"table\":{\"columns\":[" + columns.map(string).joined(separator: ",") + "],\"rows\":["
                + rows.map { "[" + $0.map(cell).joined(separator: ",") + "]" }.joined(separator: ",") + "]}}"
        case .chart, .form: return nil
        }
    }

    private static func cell(_ cell: SitePage.Cell) -> String {
        switch cell {
        case .text(let text), .code(let text), .name(let text), .number(let text): string(text)
        case .link(let text, let href, _): "{\"text\":" + string(text) + ",\"href\":" + string(href) + "}"
        case .evidence(let value): evidence(value)
        case .cells(let cells): "[" + cells.map(Self.cell).joined(separator: ",") + "]"
        case .empty: "null"
        }
    }

    private static func evidence(_ value: EvidenceValue) -> String {
        switch value {
        case .null: "null"
        case .scalar(let text): string(text)
        case .list(let values): "[" + values.map(evidence).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { string($0.name) + ":" + evidence($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and every control character escaped, and the line and paragraph
    /// separators too (a page may be pasted into script).
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _
            where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
