/// Checks that a text is one JSON value and returns it without insignificant whitespace, ready to embed.
///
/// PostgreSQL's json and jsonb output is already valid, but a column typed json by mistake must not break the file,
/// so anything that fails the grammar is written as a string instead. Raw U+2028/U+2029 inside strings are escaped as
/// in every other JSON string we write.
struct JSONMinifier {
    /// Nesting deeper than this is refused, so hostile input cannot exhaust the stack.
    static let maximumDepth = 256

    private let input: [UInt8]
    private var index = 0
    private var depth = 0
    private var output: [UInt8] = []

    /// Prepares to read `text`.
    init(_ text: String) {
        input = Array(text.utf8)
        output.reserveCapacity(input.count)
    }

    /// The minified value, or nil when the text is not exactly one JSON value.
    mutating func minified() -> [UInt8]? {
        skipWhitespace()
        guard value() else { return nil }
        skipWhitespace()
        return index == input.count ? output : nil
    }

    private var current: UInt8? { index < input.count ? input[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        output.append(byte)
        index += 1
        return true
    }

    private mutating func value() -> Bool {
        switch current {
        case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): return string()
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        case .some(let byte) where byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39): return number()
        default: return false
        }
    }

    private mutating func container(close: UInt8, isObject: Bool) -> Bool {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return false }
        output.append(input[index])
        index += 1
        skipWhitespace()
        if consume(close) { return true }
        while true {
            if isObject {
                guard string() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard value() else { return false }
            skipWhitespace()
            if consume(close) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    private mutating func literal(_ word: String) -> Bool {
        for byte in word.utf8 {
            guard consume(byte) else { return false }
        }
        return true
    }

    private mutating func number() -> Bool {
        let start = index
        while let byte = current,
            (byte >= 0x30 && byte <= 0x39) || [0x2B, 0x2D, 0x2E, 0x45, 0x65].contains(byte)  // + - . E e
        {
            index += 1
        }
        let text = String(decoding: input[start..<index], as: UTF8.self)
        guard ReportRenderer.isJSONNumber(text) else { return false }
        output += input[start..<index]
        return true
    }

    private mutating func string() -> Bool {
        guard consume(0x22) else { return false }
        while let byte = current {
            switch byte {
            case 0x22:
                output.append(byte)
                index += 1
                return true
            case 0x5C:
                guard escape() else { return false }
            case 0x00..<0x20:
                return false
            case 0xE2
            where index + 2 < input.count && input[index + 1] == 0x80
                && (input[index + 2] == 0xA8 || input[index + 2] == 0xA9):
                output += Array((input[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 3
            default:
                output.append(byte)
                index += 1
            }
        }
        return false
    }

    /// One backslash escape; a `\u` high surrogate must be followed by a `\u` low surrogate.
    private mutating func escape() -> Bool {
        guard index + 1 < input.count else { return false }
        let kind = input[index + 1]
        if kind != UInt8(ascii: "u") {
            guard Array("\"\\/bfnrt".utf8).contains(kind) else { return false }
            output += [0x5C, kind]
            index += 2
            return true
        }
        guard let unit = hexUnit(at: index + 2) else { return false }
        switch unit {
        case 0xD800...0xDBFF:
            guard index + 11 < input.count, input[index + 6] == 0x5C, input[index + 7] == UInt8(ascii: "u"),
                let low = hexUnit(at: index + 8), (0xDC00...0xDFFF).contains(low)
            else { return false }
            output += input[index..<(index + 12)]
            index += 12
        case 0xDC00...0xDFFF:
            return false
        default:
            output += input[index..<(index + 6)]
            index += 6
        }
        return true
    }

    private func hexUnit(at start: Int) -> UInt16? {
        guard start + 4 <= input.count else { return nil }
        var unit: UInt16 = 0
        for byte in input[start..<(start + 4)] {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}
