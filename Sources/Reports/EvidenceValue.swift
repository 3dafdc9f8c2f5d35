/// A JSON value as the report site shows it: evidence, receipt details and run summaries become readable lists
/// instead of one JSON cell.
///
/// Object members keep the order of the text (PostgreSQL's `jsonb` output is already in a stable order).
package indirect enum EvidenceValue: Sendable, Equatable {
    /// A string, number or boolean, as its text (strings unquoted and unescaped).
    case scalar(String)
    /// JSON `null`.
    case null
    /// An array.
    case list([EvidenceValue])
    /// An object's members, in text order.
    case object([Member])

    /// One member of an object.
    package struct Member: Sendable, Equatable {
        /// The member name.
        package var name: String
        /// Its value.
        package var value: EvidenceValue
    }

    /// The member called `name`, when this is an object that has one.
    package subscript(name: String) -> EvidenceValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The text of a scalar; nil for null, lists and objects.
    package var text: String? {
        if case .scalar(let text) = self { text } else { nil }
    }

    /// One line for a queue of flags: `accounts: 3; store accounts: sa-1, sa-2 (+4)`, cut at about `limit`
    /// characters with `…`. Names read as words; lists show their first items and how many more.
    package func summary(limit: Int = 90) -> String {
        var text = ""
        switch self {
        case .object(let members):
            for member in members {
                if !text.isEmpty { text += "; " }
                text += SitePage.readableName(member.name) + ": " + member.value.briefly()
                if text.count > limit { break }
            }
        default:
            text = briefly()
        }
        return text.count > limit ? String(text.prefix(max(limit - 1, 1))) + "…" : text
    }

    /// A value in a few words: a scalar as it is, a list as its first two items and a count, an object by its size.
    private func briefly() -> String {
        switch self {
        case .scalar(let text): return text
        case .null: return "none"
        case .list(let values):
            let shown = values.prefix(2).map { $0.briefly() }.joined(separator: ", ")
            return values.count > 2 ? "\(shown) (+\(values.count - 2))" : (values.isEmpty ? "none" : shown)
        case .object(let members):
            return members.count == 1
                ? "\(SitePage.readableName(members[0].name)): \(members[0].value.briefly())"
                : "\(members.count) fields"
        }
    }

    /// Parses JSON text; nil when it is not valid JSON (the caller then shows the text as it is).
    package static func parse(_ text: String) -> EvidenceValue? {
        var parser = Parser(bytes: Array(text.utf8))
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.index == parser.bytes.count ? value : nil
    }

    /// A small recursive-descent reader of RFC 8259 JSON, bounded in depth so hostile nesting cannot overflow the stack.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        static let maximumDepth = 64

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) -> EvidenceValue? {
            guard depth < Self.maximumDepth else { return nil }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return list(depth: depth)
            case UInt8(ascii: "\""): return string().map { .scalar($0) }
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "t"): return literal("true") ? .scalar("true") : nil
            case UInt8(ascii: "f"): return literal("false") ? .scalar("false") : nil
            default: return number().map { .scalar($0) }
            }
        }

        mutating func literal(_ word: String) -> Bool {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
            else { return false }
            index += expected.count
            return true
        }

        mutating func number() -> String? {
            let start = index
            while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return ReportRenderer.isJSONNumber(text) ? text : nil
        }

        mutating func object(depth: Int) -> EvidenceValue? {
            var members: [Member] = []
            let isComplete = elements(closedBy: UInt8(ascii: "}")) { parser in
                parser.skipWhitespace()
                guard let name = parser.string() else { return false }
                parser.skipWhitespace()
                guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: ":") else {
                    return false
                }
                parser.index += 1
                guard let value = parser.value(depth: depth + 1) else { return false }
                members.append(Member(name: name, value: value))
                return true
            }
            return isComplete ? .object(members) : nil
        }

        mutating func list(depth: Int) -> EvidenceValue? {
            var values: [EvidenceValue] = []
            let isComplete = elements(closedBy: UInt8(ascii: "]")) { parser in
                guard let value = parser.value(depth: depth + 1) else { return false }
                values.append(value)
                return true
            }
            return isComplete ? .list(values) : nil
        }

        /// Reads an object's or array's comma-separated elements, from its opening bracket through `closing`, each
        /// with `element`; false when an element fails or the separators are wrong.
        mutating func elements(closedBy closing: UInt8, _ element: (inout Parser) -> Bool) -> Bool {
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == closing {
                index += 1
                return true
            }
            while true {
                guard element(&self) else { return false }
                skipWhitespace()
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                } else if bytes[index] == closing {
                    index += 1
                    return true
                } else {
                    return false
                }
            }
        }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            // The text's own bytes, with escapes replaced by what they stand for, decoded once at the closing quote.
            var text: [UInt8] = []
            var runStart = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                text.append(contentsOf: bytes[runStart..<index])
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var unit = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(unit), literal("\\u"), let low = hex4(),
                        (0xDC00..<0xE000).contains(low)
                    {
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    text.append(contentsOf: String(Unicode.Scalar(unit) ?? "\u{FFFD}").utf8)
                default: text.append(contentsOf: String(Unicode.Scalar(escape)).utf8)
                }
                runStart = index
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<index + 4] {
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            index += 4
            return value
        }
    }
}
