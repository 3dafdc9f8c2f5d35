/// The subset of TOML a configuration file needs: `[table]` headers (dotted names allowed), `key = value` with
/// strings (basic and literal), integers, floats, booleans and one-line arrays of those, and `#` comments.
///
/// Written here rather than pulled in as a dependency because errors must name the file line, every key must be
/// known (unknown keys are errors), and the subset is small; anything outside it is rejected with its line.
package struct TOMLDocument: Sendable, Equatable {
    /// A value with the line it was set on.
    package struct Entry: Sendable, Equatable {
        package var value: TOMLValue
        package var line: Int
    }

    /// `table.key` → entry; top-level keys have no table prefix.
    package private(set) var entries: [String: Entry] = [:]
    /// Table headers in the order they appeared, with their lines.
    package private(set) var tables: [(name: String, line: Int)] = []

    package static func == (lhs: TOMLDocument, rhs: TOMLDocument) -> Bool {
        lhs.entries == rhs.entries && lhs.tables.map(\.name) == rhs.tables.map(\.name)
    }

    /// Parses `text`; errors name the line.
    package static func parse(_ text: String) throws(TOMLError) -> TOMLDocument {
        var document = TOMLDocument()
        var table = ""
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            var scanner = TOMLScanner(Array(rawLine.utf8), line: lineNumber)
            scanner.skipSpaces()
            if scanner.isAtEndOrComment { continue }
            if scanner.peek == UInt8(ascii: "[") {
                scanner.advance()
                guard scanner.peek != UInt8(ascii: "[") else {
                    throw TOMLError(line: lineNumber, message: "arrays of tables ([[…]]) are not supported")
                }
                let name = try scanner.dottedKey()
                scanner.skipSpaces()
                guard scanner.peek == UInt8(ascii: "]") else {
                    throw scanner.error("expected ']' after the table name")
                }
                scanner.advance()
                try scanner.expectEndOfLine()
                guard !document.tables.contains(where: { $0.name == name }) else {
                    throw TOMLError(line: lineNumber, message: "table [\(name)] is defined twice")
                }
                document.tables.append((name, lineNumber))
                table = name
                continue
            }
            let key = try scanner.dottedKey()
            scanner.skipSpaces()
            guard scanner.peek == UInt8(ascii: "=") else { throw scanner.error("expected '=' after the key \(key)") }
            scanner.advance()
            scanner.skipSpaces()
            let value = try scanner.value()
            try scanner.expectEndOfLine()
            let fullKey = table.isEmpty ? key : table + "." + key
            guard document.entries[fullKey] == nil else {
                throw TOMLError(line: lineNumber, message: "\(fullKey) is set twice")
            }
            document.entries[fullKey] = Entry(value: value, line: lineNumber)
        }
        return document
    }
}

/// A TOML value of the supported subset.
package enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    case array([TOMLValue])

    var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "a boolean"
        case .array: "an array"
        }
    }
}

/// A configuration file that is not valid (in our TOML subset), with the line that is wrong.
package struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var message: String
    package var description: String { "line \(line): \(message)" }
}

/// Reads one line of TOML.
struct TOMLScanner {
    private let bytes: [UInt8]
    private var index = 0
    let line: Int

    init(_ bytes: [UInt8], line: Int) {
        self.bytes = bytes.last == UInt8(ascii: "\r") ? Array(bytes.dropLast()) : bytes
        self.line = line
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    var isAtEndOrComment: Bool { peek == nil || peek == UInt8(ascii: "#") }

    mutating func advance() { index += 1 }

    mutating func skipSpaces() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
    }

    func error(_ message: String) -> TOMLError { TOMLError(line: line, message: message) }

    mutating func expectEndOfLine() throws(TOMLError) {
        skipSpaces()
        guard isAtEndOrComment else { throw error("unexpected text after the value") }
    }

    mutating func dottedKey() throws(TOMLError) -> String {
        var parts: [String] = []
        repeat {
            skipSpaces()
            if peek == UInt8(ascii: ".") { index += 1 }
            skipSpaces()
            if peek == UInt8(ascii: "\"") {
                parts.append(try basicString())
            } else {
                let start = index
                while let byte = peek, Self.isBareKeyByte(byte) { index += 1 }
                guard index > start else { throw error("expected a key") }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            }
            skipSpaces()
        } while peek == UInt8(ascii: ".")
        return parts.joined(separator: ".")
    }

    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F || byte == 0x2D
    }

    mutating func value() throws(TOMLError) -> TOMLValue {
        guard let byte = peek else { throw error("a value is missing") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try basicString())
        case UInt8(ascii: "'"): return .string(try literalString())
        case UInt8(ascii: "["): return .array(try array())
        default:
            let start = index
            while let next = peek, next != 0x20, next != 0x09, next != UInt8(ascii: ","), next != UInt8(ascii: "]"),
                next != UInt8(ascii: "#")
            {
                index += 1
            }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            let digits = word.replacingUnderscores()
            if let integer = Int(digits) { return .integer(integer) }
            if let number = Double(digits), digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                return .float(number)
            }
            throw error("\"\(word)\" is not a value (quote strings: key = \"text\")")
        }
    }

    private mutating func array() throws(TOMLError) -> [TOMLValue] {
        index += 1  // [
        var elements: [TOMLValue] = []
        while true {
            skipSpaces()
            if peek == UInt8(ascii: "]") {
                index += 1
                return elements
            }
            guard peek != nil, peek != UInt8(ascii: "#") else {
                throw error("arrays must close on the same line")
            }
            elements.append(try value())
            skipSpaces()
            if peek == UInt8(ascii: ",") {
                index += 1
            } else if peek != UInt8(ascii: "]") {
                throw error("expected ',' or ']' in the array")
            }
        }
    }

    private mutating func basicString() throws(TOMLError) -> String {
        index += 1  // "
        var decoded: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: decoded, as: UTF8.self) else { throw error("invalid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = peek else { throw error("unfinished escape") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): decoded.append(escape)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                default: throw error("unsupported escape \\\(Character(Unicode.Scalar(escape)))")
                }
            default:
                decoded.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func literalString() throws(TOMLError) -> String {
        index += 1  // '
        let start = index
        while let byte = peek, byte != UInt8(ascii: "'") { index += 1 }
        guard peek == UInt8(ascii: "'") else { throw error("unterminated string") }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return text
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(filter { $0 != "_" })
    }
}
