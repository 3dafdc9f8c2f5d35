extension ReportRenderer {
    /// A GitHub-flavoured Markdown document: `# title`, the description, a line with when and how it was run, and a
    /// table with numeric columns right-aligned.
    static func markdown(_ table: ReportTable) -> [UInt8] {
        var out = RenderBuffer()
        out.reserveCapacity(estimatedSize(table, rows: table.rows.count))
        out.write("# ")
        appendMarkdownEscaped(table.title, to: &out)
        out.write("\n\n")
        appendMarkdownEscaped(table.description, to: &out)
        out.write("\n\n")
        var facts = ["Generated \(table.generatedAt)"]
        if !table.parameters.isEmpty {
            facts.append("Parameters: " + table.parameters.map(parameterText).joined(separator: ", "))
        }
        facts.append(rowCount(table.rows.count))
        appendMarkdownEscaped(facts.joined(separator: " · "), to: &out)
        out.write("\n\n")
        guard !table.rows.isEmpty, !table.columns.isEmpty else {
            out.write("No rows.\n")
            return out.bytes
        }
        out.write("|")
        for column in table.columns {
            out.write(" ")
            appendMarkdownEscaped(column.name, to: &out)
            out.write(" |")
        }
        out.write("\n|")
        for column in table.columns {
            out.write(column.kind.isNumeric ? " ---: |" : " --- |")
        }
        out.write("\n")
        for row in table.rows {
            out.write("|")
            for (index, column) in table.columns.enumerated() {
                out.write(" ")
                if let value = cell(row, index) {
                    appendMarkdownEscaped(displayText(value, kind: column.kind), to: &out)
                }
                out.write(" |")
            }
            out.write("\n")
        }
        return out.bytes
    }

    /// Escapes text so GitHub shows it literally inside a table cell or paragraph.
    ///
    /// `|` would end the cell; `\` `` ` `` `*` `_` `[` `]` `~` `#` would start escapes, code, emphasis, links,
    /// strikethrough or close a heading; `<` `>` `&` would be read as inline HTML or entities. Line breaks become
    /// `<br>` because a raw newline ends the table row.
    static func appendMarkdownEscaped(_ text: String, to out: inout RenderBuffer) {
        var previousWasCR = false
        for byte in text.utf8 {
            defer { previousWasCR = byte == 0x0D }
            switch byte {
            case 0x0D: out.write("<br>")
            case 0x0A where previousWasCR: continue
            case 0x0A: out.write("<br>")
            case UInt8(ascii: "<"): out.write("&lt;")
            case UInt8(ascii: ">"): out.write("&gt;")
            case UInt8(ascii: "&"): out.write("&amp;")
            case UInt8(ascii: "|"), UInt8(ascii: "\\"), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "_"),
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "~"), UInt8(ascii: "#"):
                out += [UInt8(ascii: "\\"), byte]
            default: out.append(byte)
            }
        }
    }
}
