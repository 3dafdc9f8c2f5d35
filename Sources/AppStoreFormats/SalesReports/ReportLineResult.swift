/// What one line of a report turned out to be.
package enum ReportLineResult: Sendable, Equatable {
    /// The header (or, for the Payments summary, its title and column lines; or a repeat of the header).
    case header(ReportLayout)
    /// A data row, parsed and ready to store.
    case row(SalesReportRow)
    /// An empty line, or one of only spaces and tabs (or only commas, in the Payments summary).
    case blank
    /// A summary line: `Total_Rows`, `Total_Amount`, `Total_Units`, or a Payments footer.
    case trailer(ReportTrailer)
    /// A row that cannot be understood: quarantine it with this reason.
    case rejected(ReportRowIssue)
    /// A line not parsed because the file's header is unusable; `finish()` reports why and how many.
    case skipped
}
