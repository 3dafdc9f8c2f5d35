/// A type that `QueryResult.decode` can read from PostgreSQL's text output.
package protocol PostgresDecodable {
    /// What the type is called in a decoding error ("an integer").
    static var postgresTypeDescription: String { get }
    /// Parses the text PostgreSQL sends for a value of this type; nil when it is not one.
    init?(postgresText: String)
}

/// Numbers: PostgreSQL's text for them is what their `LosslessStringConvertible` initialiser reads.
extension PostgresDecodable where Self: LosslessStringConvertible {
    /// Parses `postgresText` with `init?(_ description:)`.
    package init?(postgresText: String) { self.init(postgresText) }
}

extension String: PostgresDecodable {
    package static var postgresTypeDescription: String { "a text" }
    package init?(postgresText: String) { self = postgresText }
}

extension Int: PostgresDecodable {
    package static var postgresTypeDescription: String { "an integer" }
}

extension Int64: PostgresDecodable {
    package static var postgresTypeDescription: String { "a 64-bit integer" }
}

extension Int32: PostgresDecodable {
    package static var postgresTypeDescription: String { "a 32-bit integer" }
}

extension Double: PostgresDecodable {
    package static var postgresTypeDescription: String { "a number" }
}

extension Bool: PostgresDecodable {
    package static var postgresTypeDescription: String { "a boolean" }
    package init?(postgresText: String) {
        switch postgresText {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
}

extension PostgresBytes: PostgresDecodable {
    package static var postgresTypeDescription: String { "a bytea in hex format" }
    package init?(postgresText: String) {
        let text = Array(postgresText.utf8)
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            return nil
        }
        func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2 - 1)
        var index = 2
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(bytes)
    }
}
