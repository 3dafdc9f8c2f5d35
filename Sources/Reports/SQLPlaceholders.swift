/// The `$n` parameter placeholders a SQL text uses, found by a scanner that skips comments and quoted text.
package struct SQLPlaceholders: Sendable, Equatable {
    /// Whether anything other than whitespace and comments is present.
    package private(set) var hasStatement = false
    /// The placeholder numbers used, e.g. `[1, 2]` for `$1` and `$2`.
    package private(set) var numbers: Set<Int> = []

    /// Scans PostgreSQL SQL: `--` and nested `/* */` comments, `'…'`, `E'…'`, `"…"` and `$tag$…$tag$` are skipped,
    /// so a `$1` inside a string or comment does not count.
    package init(scanning sql: String) {
        let bytes = Array(sql.utf8)
        let count = bytes.count
        var index = 0
        func at(_ i: Int) -> UInt8? { i < count ? bytes[i] : nil }
        while index < count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "-") where at(index + 1) == UInt8(ascii: "-"):
                while index < count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where at(index + 1) == UInt8(ascii: "*"):
                var depth = 0
                repeat {
                    if at(index) == UInt8(ascii: "/"), at(index + 1) == UInt8(ascii: "*") {
                        depth += 1
                        index += 2
                    } else if at(index) == UInt8(ascii: "*"), at(index + 1) == UInt8(ascii: "/") {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < count
            case UInt8(ascii: "'"):
                hasStatement = true
                // E'…' strings treat backslash as an escape; elsewhere only '' escapes a quote.
                let isEscapeString =
                    index > 0 && (bytes[index - 1] | 0x20) == UInt8(ascii: "e")
                    && (index < 2 || !Self.isIdentifierByte(bytes[index - 2]))
                index = Self.skipQuoted(bytes, from: index, quote: UInt8(ascii: "'"), backslash: isEscapeString)
            case UInt8(ascii: "\""):
                hasStatement = true
                index = Self.skipQuoted(bytes, from: index, quote: UInt8(ascii: "\""), backslash: false)
            case UInt8(ascii: "$"):
                hasStatement = true
                index = scanDollar(bytes, at: index)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0C:
                index += 1
            default:
                hasStatement = true
                index += 1
            }
        }
    }

    /// Handles a `$`: a placeholder `$12`, a dollar-quoted string, or part of an identifier such as `a$1`.
    private mutating func scanDollar(_ bytes: [UInt8], at start: Int) -> Int {
        if start > 0, Self.isIdentifierByte(bytes[start - 1]) { return start + 1 }
        var index = start + 1
        if index < bytes.count, Self.isDigit(bytes[index]) {
            var number = 0
            while index < bytes.count, Self.isDigit(bytes[index]) {
                // Saturate rather than overflow: any huge number is reported as undeclared anyway.
                number = min(number * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000_000)
                index += 1
            }
            numbers.insert(number)
            return index
        }
        while index < bytes.count, Self.isIdentifierByte(bytes[index]), bytes[index] != UInt8(ascii: "$") {
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "$") else { return start + 1 }
        let tag = bytes[start...index]
        var search = index + 1
        while search + tag.count <= bytes.count {
            if bytes[search] == UInt8(ascii: "$"), bytes[search..<(search + tag.count)].elementsEqual(tag) {
                return search + tag.count
            }
            search += 1
        }
        return bytes.count
    }

    private static func skipQuoted(_ bytes: [UInt8], from start: Int, quote: UInt8, backslash: Bool) -> Int {
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if backslash, byte == UInt8(ascii: "\\") {
                index += 2
            } else if byte == quote {
                if index + 1 < bytes.count, bytes[index + 1] == quote {
                    index += 2
                } else {
                    return index + 1
                }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Letters, digits, `_`, `$` and any non-ASCII byte can continue a PostgreSQL identifier.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
