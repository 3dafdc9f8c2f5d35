/// Something about a report file as a whole, found while reading it (as opposed to one rejected row).
package struct ReportFinding: Sendable, Equatable, CustomStringConvertible {
    /// How much a finding matters.
    package enum Severity: String, Sendable, Hashable, Comparable {
        /// Worth recording; nothing is wrong with what was stored (e.g. Apple's own totals differ in a known way).
        case info
        /// The rows were stored, but the file disagrees with itself or is incomplete.
        case warning
        /// The file's rows could not be read at all.
        case error

        /// Orders `info < warning < error`.
        package static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// A stable code: `empty-file`, `header-only`, `all-rows-rejected`, `unrecognised-header`, `duplicate-header`, `missing-columns`,
    /// `unfamiliar-column-count`, `repeated-header`, `missing-trailer`, `invalid-trailer`, `total-rows-mismatch`,
    /// `total-units-mismatch`, `total-amount-mismatch`.
    package let code: String
    /// What was found, with the numbers or names involved.
    package let message: String
    /// The 1-based line it concerns (the header, the trailer line), if one.
    package let line: Int?
    /// How much it matters.
    package let severity: Severity

    /// Creates a finding.
    package init(code: String, message: String, line: Int? = nil, severity: Severity) {
        self.code = code
        self.message = message
        self.line = line
        self.severity = severity
    }

    /// `warning total-rows-mismatch (line 6): …`.
    package var description: String {
        "\(severity.rawValue) \(code)" + (line.map { " (line \($0))" } ?? "") + ": \(message)"
    }
}
