/// Formats one log event as one line of text: whatever a message or value holds (a file name with a newline, an
/// escape sequence), the event stays exactly one line and nothing reaches the terminal as a control character.
enum LogLine {
    /// A value in a JSON line: a string, or an integer written as a JSON number.
    enum JSONValue: Equatable {
        case string(String)
        case integer(Int64)
    }

    /// `time level message key=value…`: control characters in the message, keys and values visibly escaped; a
    /// value that is empty-looking, spaced, or holds `=`, `"`, `\` or a control character is quoted.
    static func plain(time: String, level: String, message: String, metadata: [String: String]) -> String {
        var line = "\(time) \(level) \(escaped(message, quoting: false))"
        for key in metadata.keys.sorted() {
            line += " \(escaped(key, quoting: false))=" + plainValue(metadata[key] ?? "")
        }
        return line
    }

    /// One JSON object with sorted keys; every control character escaped (DEL and C1 too, which JSON allows raw).
    static func json(_ fields: [String: JSONValue]) -> String {
        let members = fields.keys.sorted().map { key -> String in
            let value: String
            switch fields[key] ?? .string("") {
            case .string(let text): value = jsonString(text)
            case .integer(let number): value = String(number)
            }
            return jsonString(key) + ":" + value
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func plainValue(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { scalar in
            scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || isControl(scalar)
                || scalar.properties.isWhitespace
        }
        return needsQuotes ? "\"" + escaped(value, quoting: true) + "\"" : value
    }

    /// `text` with control characters as `\n`, `\r`, `\t` or `\u{1B}`; with `quoting`, `"` and `\` escaped too.
    static func escaped(_ text: String, quoting: Bool) -> String {
        escaping(text, named: quoting ? quotedEscapes : controlEscapes) { "\\u{" + hex($0, digits: 2) + "}" }
    }

    static func jsonString(_ text: String) -> String {
        "\"" + escaping(text, named: jsonEscapes) { "\\u" + hex($0, digits: 4) } + "\""
    }

    /// The control characters both formats spell by name.
    private static let controlEscapes: [Unicode.Scalar: String] = ["\n": "\\n", "\r": "\\r", "\t": "\\t"]
    /// A quoted plain value also escapes its quotes and backslashes.
    private static let quotedEscapes = controlEscapes.merging(["\"": "\\\"", "\\": "\\\\"]) { $1 }
    /// JSON adds its own short forms of backspace and form feed.
    private static let jsonEscapes = quotedEscapes.merging(["\u{08}": "\\b", "\u{0C}": "\\f"]) { $1 }

    /// `text` with each scalar of `named` replaced by its escape and any other control character by `control` of its
    /// value; unchanged (not copied) when there is nothing to escape.
    private static func escaping(
        _ text: String, named: [Unicode.Scalar: String], control: (UInt32) -> String
    ) -> String {
        guard text.unicodeScalars.contains(where: { named[$0] != nil || isControl($0) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if let escape = named[scalar] {
                result += escape
            } else if isControl(scalar) {
                result += control(scalar.value)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators (some viewers break lines there).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
