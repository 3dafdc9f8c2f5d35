internal import Postgres

extension Connection {
    /// Runs the statements of a query file (`sql/queries/<name>.sql`) in order. A statement that names a placeholder takes all of
    /// `parameters` (the file's header says what `$1`, `$2`… are); the others take none, as PostgreSQL requires.
    /// Returns the last statement's result. On Citus (`dialect`) the file's `.citus.sql` form runs where it has one.
    @discardableResult
    func runQueryFile(
        _ file: SQLQuery, parameters: [(any PostgresParameter)?] = [], dialect: QueryDialect = .postgres,
        context: String
    ) throws -> QueryResult? {
        var last: QueryResult?
        for statement in file.statements(on: dialect) {
            last = try query(statement.text, statement.takesParameters ? parameters : [], context: context)
        }
        return last
    }
}
