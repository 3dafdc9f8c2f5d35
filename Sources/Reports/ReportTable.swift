/// The result of running a report: what it is, the values as PostgreSQL's text output, and how it was asked for.
package struct ReportTable: Sendable, Equatable {
    /// One parameter the report ran with, in declaration order.
    package struct Parameter: Sendable, Hashable {
        /// The parameter name from the report header.
        package var name: String
        /// The text bound to it; nil when it was bound as SQL NULL.
        package var value: String?
        /// Whether the value is the report's default (not given): pages leave it out rather than print
        /// `1970-01-01 … 9999-12-31`.
        package var isDefault: Bool

        /// Creates a parameter record.
        package init(name: String, value: String?, isDefault: Bool = false) {
            self.name = name
            self.value = value
            self.isDefault = isDefault
        }
    }

    /// A link in a page's navigation bar.
    package struct Link: Sendable, Hashable {
        /// What the link reads.
        package var text: String
        /// A relative path the caller chose (never input text).
        package var href: String

        /// Creates a link.
        package init(text: String, href: String) {
            self.text = text
            self.href = href
        }
    }

    /// The report title from its header.
    package var title: String
    /// The report description from its header.
    package var description: String
    /// The result columns, in query order.
    package var columns: [ReportColumn]
    /// Cells in PostgreSQL text format (booleans `t`/`f`); nil is SQL NULL. Short rows read as NULL.
    package var rows: [[String?]]
    /// When the report was generated, already formatted for people to read.
    package var generatedAt: String
    /// The parameters the report ran with.
    package var parameters: [Parameter]
    /// Links shown above the HTML page's title (e.g. back to the run's `index.html`); none for a lone report.
    package var navigation: [Link] = []
    /// Cells the HTML page links, by column name and then cell value: the relative path of the page that value has
    /// (a store account's, a transaction's), chosen by the caller, never taken from the value.
    package var cellLinks: [String: [String: String]] = [:]
    /// Cells the HTML page links by column name and then row index (`ReportLink`: the page of the rows behind one
    /// figure), chosen by the caller; a value-keyed `cellLinks` link wins where both name a cell.
    package var rowLinks: [String: [Int: String]] = [:]
    /// Further tables the HTML page shows below this one, each under its title (the month-end pack's table per region
    /// under its bridge); other formats write each report on its own.
    package var sections: [ReportTable] = []

    /// Creates a report result.
    package init(
        title: String,
        description: String,
        columns: [ReportColumn],
        rows: [[String?]],
        generatedAt: String,
        parameters: [Parameter] = []
    ) {
        self.title = title
        self.description = description
        self.columns = columns
        self.rows = rows
        self.generatedAt = generatedAt
        self.parameters = parameters
    }
}
