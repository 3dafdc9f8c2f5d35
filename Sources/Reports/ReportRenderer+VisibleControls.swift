extension ReportRenderer {
    /// Whether `scalar` is a control or invisible format character that a report shows as a visible marker.
    ///
    /// These are the characters that make two different product ids look alike or reorder what a reader sees: the
    /// bidi embeddings, overrides, isolates and marks, the zero-width characters, the byte order mark, and C0/C1
    /// controls (tab, line feed and carriage return excepted: they are layout, and the renderers handle them).
    static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0xFEFF: true
        default: false
        }
    }

    /// `⟨U+202E⟩`: the visible stand-in for an invisible control in text a person reads.
    static func controlMarker(_ scalar: Unicode.Scalar) -> String {
        "⟨\(codePoint(scalar))⟩"
    }

    /// `U+202E RIGHT-TO-LEFT OVERRIDE`, or `U+001B CONTROL` for controls, which have no Unicode name.
    static func controlDescription(_ scalar: Unicode.Scalar) -> String {
        "\(codePoint(scalar)) \(scalar.properties.name ?? "CONTROL")"
    }

    /// `U+202E`: at least four upper-case hex digits.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether a value could change the order in which a bidi-aware viewer shows the text around it.
    ///
    /// ASCII has no right-to-left letters and no bidi controls, so an ASCII value cannot; anything else might.
    static func mayReorderNeighbours(_ text: String) -> Bool {
        text.utf8.contains { $0 >= 0x80 }
    }
}
