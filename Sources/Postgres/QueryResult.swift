internal import CLibPQ

/// The rows a statement returned, as PostgreSQL's text output; owns its `PGresult`.
package final class QueryResult {
    private let result: OpaquePointer

    /// Number of rows returned.
    package let rowCount: Int
    /// Number of columns returned.
    package let columnCount: Int

    init(taking result: OpaquePointer) {
        self.result = result
        self.rowCount = Int(PQntuples(result))
        self.columnCount = Int(PQnfields(result))
    }

    deinit {
        PQclear(result)
    }

    /// The rows changed by an INSERT/UPDATE/DELETE/COPY, as the command tag reports it.
    package var affectedRows: Int {
        Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// The name of column `column`.
    package func columnName(_ column: Int) -> String {
        String(cString: PQfname(result, Int32(column)))
    }

    /// The type OID of column `column` (see `pg_type`).
    package func columnTypeOID(_ column: Int) -> UInt32 {
        UInt32(PQftype(result, Int32(column)))
    }

    /// The value at (`row`, `column`) in text form, or nil for SQL NULL.
    package func string(_ row: Int, _ column: Int) -> String? {
        if PQgetisnull(result, Int32(row), Int32(column)) != 0 { return nil }
        return String(cString: PQgetvalue(result, Int32(row), Int32(column)))
    }

    /// The value at (`row`, `column`) as `type`; throws a decoding error naming the column on NULL or a non-`type`.
    package func decode<Value: PostgresDecodable>(
        _ type: Value.Type, _ row: Int, _ column: Int
    ) throws(PostgresError) -> Value {
        guard let value = try decode(Value?.self, row, column) else {
            throw .decoding(
                column: columnName(column), row: row, expected: Value.postgresTypeDescription, found: nil)
        }
        return value
    }

    /// The value at (`row`, `column`) as `type`, nil for SQL NULL; throws a decoding error when it does not parse.
    package func decode<Value: PostgresDecodable>(
        _ type: Value?.Type, _ row: Int, _ column: Int
    ) throws(PostgresError) -> Value? {
        guard row >= 0, row < rowCount, column >= 0, column < columnCount else {
            throw PostgresError(
                kind: .decoding,
                message: "no value at row \(row), column \(column) (the result has \(rowCount) rows, "
                    + "\(columnCount) columns)")
        }
        guard let text = string(row, column) else { return nil }
        guard let value = Value(postgresText: text) else {
            throw .decoding(
                column: columnName(column), row: row, expected: Value.postgresTypeDescription, found: text)
        }
        return value
    }

    /// The integer at (`row`, `column`); throws on NULL or a non-integer.
    package func requireInt(_ row: Int, _ column: Int) throws(PostgresError) -> Int {
        try decode(Int.self, row, column)
    }

    /// The text at (`row`, `column`); throws on NULL.
    package func requireString(_ row: Int, _ column: Int) throws(PostgresError) -> String {
        try decode(String.self, row, column)
    }

    /// The boolean at (`row`, `column`); throws on NULL or a non-boolean.
    package func requireBool(_ row: Int, _ column: Int) throws(PostgresError) -> Bool {
        try decode(Bool.self, row, column)
    }

    /// The value at (`row`, `column`) as an integer, or nil for NULL or a non-integer.
    package func int(_ row: Int, _ column: Int) -> Int? {
        string(row, column).flatMap { Int($0) }
    }

    /// The value at (`row`, `column`) as a boolean (`t`/`f`), or nil for NULL.
    package func bool(_ row: Int, _ column: Int) -> Bool? {
        string(row, column).map { $0 == "t" || $0 == "true" }
    }

    /// Every row as an array of optional strings, in column order.
    package var rows: [[String?]] {
        (0..<rowCount).map { row in (0..<columnCount).map { string(row, $0) } }
    }

    /// The column names in order, read once: rows are decoded by name (`Row`).
    package private(set) lazy var columnNames: [String] = (0..<columnCount).map(columnName)
}

@available(*, unavailable)
extension QueryResult: Sendable {}
