/// Why one report line was rejected; the caller quarantines the line and the rest of the file goes on.
package struct ReportRowIssue: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line number in the file.
    package let line: Int
    /// A stable reason code: `short-row`, `long-row`, `invalid-number`, `invalid-date`, `invalid-utf8` or
    /// `missing-key`.
    package let code: String
    /// What is wrong, for a person: `row has 26 fields, header has 27`.
    package let message: String
    /// The header name of the offending column, when one column is at fault.
    package let column: String?

    /// Creates an issue for one of the quarantine's reasons (what the parser does).
    package init(line: Int, reason: QuarantineReason, message: String, column: String? = nil) {
        self.init(line: line, code: reason.rawValue, message: message, column: column)
    }

    /// Creates an issue from a reason code's text.
    package init(line: Int, code: String, message: String, column: String? = nil) {
        self.line = line
        self.code = code
        self.message = message
        self.column = column
    }

    /// The quarantine reason the code names; nil only for an issue built by hand with a code outside
    /// `QuarantineReason` (the parser builds every issue from a reason).
    package var reason: QuarantineReason? { QuarantineReason(rawValue: code) }

    /// `line 3: short-row: row has 26 fields, header has 27`.
    package var description: String { "line \(line): \(code): \(message)" }
}
