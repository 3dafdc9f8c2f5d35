/// Why bytes are not a JSON document, and where (byte offset from the start of the input).
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    package enum Reason: Sendable, Equatable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidUTF8
        case invalidEscape
        case invalidNumber
        case controlCharacterInString
        /// `\u0000`: valid JSON, but PostgreSQL text cannot hold it, so it is refused at the door.
        case nulCharacter
        case tooDeep(limit: Int)
        case trailingData
    }

    /// What went wrong.
    package var reason: Reason
    /// Byte offset of the problem.
    package var offset: Int

    package var description: String {
        switch reason {
        case .unexpectedEnd: "JSON ends unexpectedly at byte \(offset)"
        case .unexpectedByte(let byte):
            if byte >= 0x20 && byte < 0x7F {
                "unexpected character '\(Character(Unicode.Scalar(byte)))' at byte \(offset)"
            } else {
                "unexpected byte 0x\(String(byte, radix: 16, uppercase: true)) at byte \(offset)"
            }
        case .invalidUTF8: "invalid UTF-8 in a string at byte \(offset)"
        case .invalidEscape: "invalid escape sequence at byte \(offset)"
        case .invalidNumber: "malformed number at byte \(offset)"
        case .controlCharacterInString: "unescaped control character in a string at byte \(offset)"
        case .nulCharacter: "a string holds \\u0000 (a NUL character) at byte \(offset)"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels at byte \(offset)"
        case .trailingData: "unexpected data after the JSON value at byte \(offset)"
        }
    }
}
