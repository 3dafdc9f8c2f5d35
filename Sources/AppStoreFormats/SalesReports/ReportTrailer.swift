/// A summary line at the end of a report: a financial report's `Total_Rows`, `Total_Amount` or `Total_Units`, or a
/// footer of the Payments summary (`"234.58" EUR`, `Paid to …`).
package struct ReportTrailer: Sendable, Equatable {
    /// The 1-based line number.
    package let line: Int
    /// `Total_Rows`, `Total_Amount`, `Total_Units`; empty for a Payments footer.
    package let name: String
    /// The value as written, trimmed (`4`, `33.15`); a Payments footer's non-empty fields joined by a space.
    package let value: String

    /// Creates a trailer line.
    package init(line: Int, name: String, value: String) {
        self.line = line
        self.name = name
        self.value = value
    }
}
