/// One column of a report result: the name the query gave it and the kind of its values.
package struct ReportColumn: Sendable, Hashable {
    /// The column label from the query (`AS name`), used as CSV header, JSON key and table heading.
    package var name: String
    /// The kind of values in the column.
    package var kind: ColumnKind

    /// Creates a column description.
    package init(name: String, kind: ColumnKind) {
        self.name = name
        self.kind = kind
    }
}
