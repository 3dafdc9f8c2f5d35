/// Why one report line was rejected; the caller quarantines the line and the rest of the file goes on.
public struct ReportRowIssue: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line number in the file.
    public let line: Int
    /// A stable reason code: `short-row`, `long-row`, `invalid-number`, `invalid-date`, `invalid-utf8` or
    /// `missing-key`.
    public let code: String
    /// What is wrong, for a person: `row has 26 fields, header has 27`.
    public let message: String
    /// The header name of the offending column, when one column is at fault.
    public let column: String?

    /// Creates an issue.
    public init(line: Int, code: String, message: String, column: String? = nil) {
        self.line = line
        self.code = code
        self.message = message
        self.column = column
    }

    /// `line 3: short-row: row has 26 fields, header has 27`.
    public var description: String { "line \(line): \(code): \(message)" }
}
