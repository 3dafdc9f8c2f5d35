/// A value that can travel to PostgreSQL as a text-format bound parameter (`$n`).
package protocol PostgresParameter: Sendable {
    /// The value in PostgreSQL's text input format.
    var postgresText: String { get }
}

extension String: PostgresParameter {
    package var postgresText: String { self }
}

extension Substring: PostgresParameter {
    package var postgresText: String { String(self) }
}

extension Int: PostgresParameter {
    package var postgresText: String { String(self) }
}

extension Int64: PostgresParameter {
    package var postgresText: String { String(self) }
}

extension Int32: PostgresParameter {
    package var postgresText: String { String(self) }
}

extension Bool: PostgresParameter {
    package var postgresText: String { self ? "true" : "false" }
}

extension Double: PostgresParameter {
    package var postgresText: String { String(self) }
}

/// Bytes sent as a `bytea` parameter.
///
/// Travels in text form as PostgreSQL's hex format (`\x` followed by two lowercase hex digits a byte), which the server
/// accepts whatever `bytea_output` or `standard_conforming_strings` say: a bound parameter is never parsed as a literal.
package struct PostgresBytes: PostgresParameter, Equatable, Hashable {
    /// The bytes.
    package var bytes: [UInt8]

    /// Wraps `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var postgresText: String {
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + 2 * bytes.count)
        Self.appendHex(bytes, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends two lowercase hex digits a byte: the body of `bytea`'s hex format, here and in COPY rows.
    static func appendHex(_ bytes: some Sequence<UInt8>, to text: inout [UInt8]) {
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}

/// A `text[]` parameter: an array literal in which every element is double-quoted, so commas, braces, spaces, empty
/// strings and the word `NULL` arrive as written; nil elements are SQL NULLs.
package struct PostgresTextArray: PostgresParameter, Equatable, Hashable {
    /// The elements; nil is an SQL NULL element.
    package var elements: [String?]

    /// Wraps `elements`.
    package init(_ elements: [String?]) {
        self.elements = elements
    }

    package var postgresText: String {
        let quoted = elements.map { element -> String in
            guard let element else { return "NULL" }
            var text = "\""
            for character in element.unicodeScalars {
                // Inside double quotes only `"` and `\` need a backslash (PostgreSQL's array input rules).
                if character == "\"" || character == "\\" { text.unicodeScalars.append("\\") }
                text.unicodeScalars.append(character)
            }
            return text + "\""
        }
        return "{" + quoted.joined(separator: ",") + "}"
    }
}

extension Array: PostgresParameter where Element == String {
    /// The strings as a `text[]` literal (see `PostgresTextArray`).
    package var postgresText: String { PostgresTextArray(map { Optional($0) }).postgresText }
}
