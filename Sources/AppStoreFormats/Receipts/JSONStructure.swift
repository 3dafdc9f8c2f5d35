/// Where a run of JSON bytes stands in the text's structure: how deep in objects and arrays, and whether inside a
/// string (backslash escapes included). Values are not parsed; this is what splitting records and telling a cut-off
/// record from a malformed one need.
package struct JSONStructure: Sendable {
    /// Open objects and arrays (negative after more closing brackets than opening ones).
    package private(set) var depth = 0
    /// Whether the last byte read is inside a string.
    package private(set) var isInString = false
    private var isEscaped = false

    /// Before any byte.
    package init() {}

    /// Whether the bytes so far end inside a value: in a string, or with an object or array open.
    package var isInsideValue: Bool { isInString || depth > 0 }

    /// Moves past one byte.
    package mutating func read(_ byte: UInt8) {
        if isInString {
            if isEscaped {
                isEscaped = false
            } else if byte == UInt8(ascii: "\\") {
                isEscaped = true
            } else if byte == UInt8(ascii: "\"") {
                isInString = false
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""): isInString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
        default: break
        }
    }
}
