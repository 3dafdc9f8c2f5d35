extension ReportRenderer {
    /// A JSON array with one object per row, one row per line, keys in column order.
    ///
    /// Numbers stay numbers (PostgreSQL's text is JSON number syntax; NaN and Infinity become strings), booleans
    /// become `true`/`false`, json columns are embedded as JSON, NULL is `null`, everything else is a string.
    ///
    /// Strings stay verbatim (JSON escapes only what its grammar needs), bidi and other invisible controls included:
    /// JSON is data, and the exact value is what a consumer must see. The HTML and Markdown pages show them visibly.
    static func json(_ table: ReportTable) -> [UInt8] {
        var out = RenderBuffer()
        out.reserveCapacity(estimatedSize(table, rows: table.rows.count) * 2)
        guard !table.rows.isEmpty else {
            out.write("[]\n")
            return out.bytes
        }
        // Pre-escaped `"key":` prefixes, made unique: a query may return two columns with the same name.
        let keys = uniqueKeys(table.columns.map(\.name)).map { key in
            var buffer = RenderBuffer()
            appendJSONString(key, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            return buffer.bytes
        }
        out.write("[\n")
        for (rowIndex, row) in table.rows.enumerated() {
            out.append(UInt8(ascii: "{"))
            for (index, column) in table.columns.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out += keys[index]
                appendJSONValue(cell(row, index), kind: column.kind, to: &out)
            }
            out.write(rowIndex + 1 < table.rows.count ? "},\n" : "}\n")
        }
        out.write("]\n")
        return out.bytes
    }

    /// `count`, `count`, `count` as `count`, `count_2`, `count_3` (skipping names already taken).
    static func uniqueKeys(_ names: [String]) -> [String] {
        var taken = Set(names)
        var seen: Set<String> = []
        return names.map { name in
            guard seen.contains(name) else {
                seen.insert(name)
                return name
            }
            var suffix = 2
            while taken.contains("\(name)_\(suffix)") { suffix += 1 }
            let unique = "\(name)_\(suffix)"
            taken.insert(unique)
            return unique
        }
    }

    private static func appendJSONValue(_ value: String?, kind: ColumnKind, to out: inout RenderBuffer) {
        guard let value else {
            out.write("null")
            return
        }
        switch kind {
        case .integer where isJSONNumber(value), .decimal where isJSONNumber(value):
            out.write(value)
        case .boolean where booleanText(value) != nil:
            out.write(booleanText(value) ?? value)
        case .json:
            var parser = JSONMinifier(value)
            if let minified = parser.minified() {
                out += minified
            } else {
                appendJSONString(value, to: &out)
            }
        default:
            appendJSONString(value, to: &out)
        }
    }

    /// A JSON string literal: quotes, backslash and control characters escaped, U+2028 and U+2029 escaped (they end
    /// lines in JavaScript), all other UTF-8 kept as is.
    static func appendJSONString(_ value: String, to out: inout RenderBuffer) {
        out.append(0x22)
        var bytes = value.utf8.makeIterator()
        var pending: UInt8? = nil
        while let byte = pending ?? bytes.next() {
            pending = nil
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x08: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C: out += [0x5C, UInt8(ascii: "f")]
            case 0x00..<0x20:
                out.write("\\u00")
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            case 0xE2:
                // U+2028 is E2 80 A8 and U+2029 is E2 80 A9.
                guard let second = bytes.next() else {
                    out.append(byte)
                    break
                }
                guard second == 0x80, let third = bytes.next() else {
                    out.append(byte)
                    pending = second
                    break
                }
                if third == 0xA8 || third == 0xA9 {
                    out.write(third == 0xA8 ? "\\u2028" : "\\u2029")
                } else {
                    out += [byte, second]
                    pending = third
                }
            default:
                out.append(byte)
            }
        }
        out.append(0x22)
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
