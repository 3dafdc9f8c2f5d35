internal import AppStoreFormats
internal import Crypto
internal import Foundation
package import Postgres
internal import Reports
internal import Synchronization

/// Which server a query runs on. A few queries have a second form, `<name>.citus.sql`, for a Citus coordinator: the
/// form plain PostgreSQL runs fastest cannot run there (docs/scale.md, "Citus").
package enum QueryDialect: Sendable {
    case postgres
    case citus

    /// The dialect of the connected database.
    package static func of(_ connection: Connection) throws -> QueryDialect {
        try CitusDistribution.isPresent(on: connection) ? .citus : .postgres
    }
}

/// The SQL that was built into this binary from `sql/`, `sql/queries/` and `reports/`.
enum SQLResources {
    /// One statement of a query file, and whether it names a placeholder (`$1`…).
    struct QueryStatement: Sendable {
        let text: String
        let takesParameters: Bool
    }

    /// The statements of a named query from `sql/queries/` (on Citus its `<name>.citus.sql` form where it has one),
    /// split once per run: ingest runs the same few files for every input file, and splitting them each time was a
    /// fifth of the loading thread's own work, time the server spent waiting.
    static func queryStatements(
        _ name: String, on dialect: QueryDialect = .postgres
    ) throws(IAPAuditError) -> [QueryStatement] {
        let key = dialect == .citus ? name + ".citus" : name
        if let statements = splitQueries.withLock({ $0[key] }) { return statements }
        let statements = splitStatements(try query(name, on: dialect)).map { statement in
            QueryStatement(text: statement, takesParameters: !SQLPlaceholders(scanning: statement).numbers.isEmpty)
        }
        splitQueries.withLock { $0[key] = statements }
        return statements
    }

    private static let splitQueries = Mutex<[String: [QueryStatement]]>([:])

    /// A whole query file's text: on Citus its `<name>.citus.sql` form where it has one.
    static func query(_ name: String, on dialect: QueryDialect = .postgres) throws(IAPAuditError) -> String {
        let queries = EmbeddedResources.queries
        if dialect == .citus, let text = queries.first(where: { $0.name == name + ".citus.sql" })?.text {
            return text
        }
        guard let text = queries.first(where: { $0.name == name + ".sql" })?.text else {
            throw IAPAuditError.internalInconsistency("query \(name).sql is not built into this binary")
        }
        return text
    }

    /// Splits a file at lines ending in `;` (the convention for the files in `sql/queries/`; comment lines do not
    /// count), dropping comment-only chunks.
    static func splitStatements(_ text: String) -> [String] {
        var statements: [String] = []
        var current: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            current.append(line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // A comment that happens to end in ';' ends no statement.
            if trimmed.hasSuffix(";") && !trimmed.hasPrefix("--") {
                let statement = current.joined(separator: "\n")
                if hasCode(statement) { statements.append(statement) }
                current = []
            }
        }
        let rest = current.joined(separator: "\n")
        if hasCode(rest) { statements.append(rest) }
        return statements
    }

    private static func hasCode(_ statement: String) -> Bool {
        statement.split(separator: "\n").contains { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !trimmed.isEmpty && !trimmed.hasPrefix("--")
        }
    }

    /// Lowercase hex SHA-256 of a text, for migration checksums.
    static func checksum(_ text: String) -> String {
        LowercaseHex.string(SHA256.hash(data: Array(text.utf8)))
    }
}
