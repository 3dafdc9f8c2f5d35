extension ReportRenderer {
    /// The UTF-8 byte order mark.
    ///
    /// Excel reads a CSV file without it in the legacy ANSI code page, turning every non-ASCII product name and
    /// currency symbol into mojibake; with it, Excel, Numbers, LibreOffice and pandas all read UTF-8 correctly.
    static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// RFC 4180 CSV: a BOM, a header row of column names, CRLF after every record, NULL as an empty field.
    ///
    /// Values stay verbatim, bidi and other invisible controls included: CSV is data for the next program, and an
    /// analyst comparing product ids must get the exact bytes. The HTML and Markdown pages show controls visibly.
    static func csv(_ table: ReportTable) -> [UInt8] {
        var out = RenderBuffer()
        out.reserveCapacity(estimatedSize(table, rows: table.rows.count))
        out += utf8ByteOrderMark
        guard !table.columns.isEmpty else { return out.bytes }
        for (index, column) in table.columns.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendCSVField(column.name, isNumber: false, to: &out)
        }
        out += [0x0D, 0x0A]
        for row in table.rows {
            for (index, column) in table.columns.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard let value = cell(row, index) else { continue }
                let text = displayText(value, kind: column.kind)
                appendCSVField(text, isNumber: column.kind.isNumeric && isJSONNumber(text), to: &out)
            }
            out += [0x0D, 0x0A]
        }
        return out.bytes
    }

    /// Writes one field, quoted when RFC 4180 needs it or when edge whitespace would otherwise be trimmed.
    ///
    /// A field that starts like a formula (`=`, `+`, `-`, `@`, tab, CR, LF) gets a leading `'` (OWASP's CSV injection
    /// advice), so a spreadsheet shows `=HYPERLINK(…)` from a product title as text instead of running it. Values
    /// that are numbers in numeric columns are left alone so `-3` stays a number finance can add up.
    static func appendCSVField(_ field: String, isNumber: Bool, to out: inout RenderBuffer) {
        let bytes = field.utf8
        guard let first = bytes.first, let last = bytes.last else { return }
        let needsPrefix: Bool
        switch first {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D, 0x0A:
            needsPrefix = !isNumber
        default:
            needsPrefix = false
        }
        let isEdgeSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        // After a `'` prefix, a leading tab is no longer at the edge.
        let needsQuotes =
            (isEdgeSpace(first) && !needsPrefix) || isEdgeSpace(last)
            || bytes.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }  // , " \r \n
        if needsQuotes { out.append(0x22) }
        if needsPrefix { out.append(UInt8(ascii: "'")) }
        if needsQuotes {
            for byte in bytes {
                out.append(byte)
                if byte == 0x22 { out.append(0x22) }
            }
            out.append(0x22)
        } else {
            out.append(contentsOf: bytes)
        }
    }
}
