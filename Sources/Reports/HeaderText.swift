/// Small text helpers for reading report headers, kept in a namespace so they cannot clash with other extensions.
enum HeaderText {
    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }), let end = text.lastIndex(where: { !isSpace($0) })
        else {
            return text[text.endIndex...]
        }
        return text[start...end]
    }

    /// Whether `scalar` is `a`...`z` or `A`...`Z`.
    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}

/// A problem with the value of one header line, turned into a `ReportDefinitionError` naming the line.
struct HeaderLineProblem: Error {
    /// What is wrong, for the user.
    var reason: String

    init(_ reason: String) { self.reason = reason }
}
