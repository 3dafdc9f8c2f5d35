/// A site page as JSON, for `iap-audit serve`'s `….json` beside every `….html` (as Datasette offers): the page's
/// title, description and blocks; tables as column names and rows of cells, links as `{"text", "href"}`, evidence as
/// nested JSON (its scalars as strings, as the page shows them). Forms and charts are left out: a script reads the
/// data and decides with `iap-audit flags`. Strings are escaped as every JSON report's are.
extension SitePage {
    package func json() -> [UInt8] {
        var out = RenderBuffer()
        out.write("{\"title\":")
        ReportRenderer.appendJSONString(title, to: &out)
        out.write(",\"description\":")
        ReportRenderer.appendJSONString(description, to: &out)
        out.write(",\"blocks\":[")
        var first = true
        for block in blocks {
            if case .form = block { continue }
            if case .chart = block { continue }
            if !first { out.write(",") }
            first = false
            Self.appendJSON(block, to: &out)
        }
        out.write("]}\n")
        return out.bytes
    }

    private static func appendJSON(_ block: Block, to out: inout RenderBuffer) {
        switch block {
        case .heading(let text):
            out.write("{\"heading\":")
            ReportRenderer.appendJSONString(text, to: &out)
            out.write("}")
        case .paragraph(let text), .note(let text):
            out.write("{\"text\":")
            ReportRenderer.appendJSONString(text, to: &out)
            out.write("}")
        case .line(let cells):
            out.write("{\"line\":")
            appendJSON(cells, to: &out)
            out.write("}")
        case .facts(let facts):
            out.write("{\"facts\":")
            appendObject(facts.map { ($0.name, $0.value) }, to: &out) { appendJSON($0, to: &$1) }
            out.write("}")
        case .table(let columns, let rows):
            out.write("{\"table\":{\"columns\":")
            appendJSON(columns.map(Cell.text), to: &out)
            out.write(",\"rows\":[")
            for (index, row) in rows.enumerated() {
                if index > 0 { out.write(",") }
                appendJSON(row, to: &out)
            }
            out.write("]}}")
        case .chart, .form: out.write("null")
        }
    }

    private static func appendJSON(_ cells: [Cell], to out: inout RenderBuffer) {
        out.write("[")
        for (index, cell) in cells.enumerated() {
            if index > 0 { out.write(",") }
            appendJSON(cell, to: &out)
        }
        out.write("]")
    }

    private static func appendJSON(_ cell: Cell, to out: inout RenderBuffer) {
        switch cell {
        case .text(let text), .code(let text), .name(let text), .number(let text):
            ReportRenderer.appendJSONString(text, to: &out)
        case .link(let text, let href, _):
            out.write("{\"text\":")
            ReportRenderer.appendJSONString(text, to: &out)
            out.write(",\"href\":")
            ReportRenderer.appendJSONString(href, to: &out)
            out.write("}")
        case .evidence(let value): appendJSON(value, to: &out)
        case .cells(let cells): appendJSON(cells, to: &out)
        case .empty: out.write("null")
        }
    }

    private static func appendJSON(_ value: EvidenceValue, to out: inout RenderBuffer) {
        switch value {
        case .null: out.write("null")
        case .scalar(let text): ReportRenderer.appendJSONString(text, to: &out)
        case .list(let values):
            out.write("[")
            for (index, value) in values.enumerated() {
                if index > 0 { out.write(",") }
                appendJSON(value, to: &out)
            }
            out.write("]")
        case .object(let members):
            appendObject(members.map { ($0.name, $0.value) }, to: &out) { appendJSON($0, to: &$1) }
        }
    }

    /// A JSON object of `members` in their order, each value written by `value`.
    private static func appendObject<Value>(
        _ members: [(String, Value)], to out: inout RenderBuffer, value: (Value, inout RenderBuffer) -> Void
    ) {
        out.write("{")
        for (index, member) in members.enumerated() {
            if index > 0 { out.write(",") }
            ReportRenderer.appendJSONString(member.0, to: &out)
            out.write(":")
            value(member.1, &out)
        }
        out.write("}")
    }
}
