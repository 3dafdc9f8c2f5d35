/// A type made from one row of a result, its fields read by column name (GRDB's `FetchableRecord` is the model):
/// reordering a query's columns then breaks nothing, and a renamed or missing column is an error that names it.
package protocol PostgresRecord {
    init(row: QueryResult.Row) throws(PostgresError)
}

extension QueryResult {
    /// One row of a result, its values read by column name.
    package struct Row {
        /// The result the row belongs to.
        package let result: QueryResult
        /// The row's index in it.
        package let index: Int

        /// The value of `column` as `type`; throws naming the column when it is absent, NULL or not a `type`.
        package func decode<Value: PostgresDecodable>(
            _ type: Value.Type, _ column: String
        ) throws(PostgresError) -> Value {
            try result.decode(type, index, result.columnIndex(column))
        }

        /// The value of `column` as `type`, nil for SQL NULL; throws naming the column when it is absent or does
        /// not parse.
        package func decode<Value: PostgresDecodable>(
            _ type: Value?.Type, _ column: String
        ) throws(PostgresError) -> Value? {
            try result.decode(type, index, result.columnIndex(column))
        }

        /// The text of `column`, nil for SQL NULL; throws naming the column when the result has none of that name.
        package func string(_ column: String) throws(PostgresError) -> String? {
            try decode(String?.self, column)
        }

        /// The values of `columns`, in that order, as text (nil for SQL NULL): for a page that shows them as they are.
        package func strings(_ columns: [String]) throws(PostgresError) -> [String?] {
            var values: [String?] = []
            values.reserveCapacity(columns.count)
            for column in columns { values.append(try string(column)) }
            return values
        }
    }

    /// The row at `index`.
    package func row(_ index: Int) -> Row { Row(result: self, index: index) }

    /// Every row, in order.
    package var allRows: [Row] { (0..<rowCount).map(row) }

    /// Every row made into a `Record`.
    package func decode<Record: PostgresRecord>(_ type: [Record].Type) throws(PostgresError) -> [Record] {
        var records: [Record] = []
        records.reserveCapacity(rowCount)
        for index in 0..<rowCount { records.append(try Record(row: row(index))) }
        return records
    }

    /// The value of `column` in the first row (a count, an id a statement returned); throws when there is no row.
    package func first<Value: PostgresDecodable>(
        _ type: Value.Type, _ column: String
    ) throws(PostgresError) -> Value {
        try requireFirstRow(column).decode(type, column)
    }

    /// The value of `column` in the first row, nil for SQL NULL; throws when there is no row.
    package func first<Value: PostgresDecodable>(
        _ type: Value?.Type, _ column: String
    ) throws(PostgresError) -> Value? {
        try requireFirstRow(column).decode(type, column)
    }

    private func requireFirstRow(_ column: String) throws(PostgresError) -> Row {
        guard rowCount > 0 else {
            throw PostgresError(kind: .decoding, message: "no row to read column \(column) from")
        }
        return row(0)
    }

    /// The index of the column called `name` (the first, should two share it); throws naming it and the columns the
    /// result has when there is none.
    package func columnIndex(_ name: String) throws(PostgresError) -> Int {
        if let column = columnNames.firstIndex(of: name) { return column }
        throw PostgresError(
            kind: .decoding,
            message: "the result has no column \(name) (its columns: \(columnNames.joined(separator: ", ")))")
    }
}
