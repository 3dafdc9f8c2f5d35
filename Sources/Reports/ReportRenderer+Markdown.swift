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
        // Headings read as the HTML page's do (`recorded units`, `first purchase (UTC)`); CSV and JSON keep the names.
        for column in table.columns {
            out.write(" ")
            appendMarkdownEscaped(heading(column.name), to: &out)
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
    ///
    /// Invisible controls become plain `⟨U+202E⟩` markers, as in HTML: Markdown is read both raw (in an editor or a
    /// terminal, where a right-to-left override reorders the line just the same) and rendered (where raw HTML such as
    /// `<span title>` may be stripped), and plain text reads in both. CSV and JSON keep values verbatim: they are data.
    static func appendMarkdownEscaped(_ text: String, to out: inout RenderBuffer) {
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\r": out.write("<br>")
            case "\n" where previousWasCR: continue
            case "\n": out.write("<br>")
            case "<": out.write("&lt;")
            case ">": out.write("&gt;")
            case "&": out.write("&amp;")
            case "|", "\\", "`", "*", "_", "[", "]", "~", "#":
                out += [UInt8(ascii: "\\"), UInt8(truncatingIfNeeded: scalar.value)]
            case _ where isInvisibleControl(scalar):
                out.write(controlMarker(scalar))
            case _ where scalar.isASCII:
                out.append(UInt8(truncatingIfNeeded: scalar.value))
            default:
                if let encoded = UTF8.encode(scalar) { out.append(contentsOf: encoded) }
            }
        }
    }
}
