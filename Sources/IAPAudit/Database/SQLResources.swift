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

/// A query file of `sql/queries/`, built into the binary: `SQLQuery.receiptMerge` is `receipt_merge.sql` (the build
/// plugin writes one constant per file, so a renamed or deleted file is a compile error where it is used).
struct SQLQuery: Sendable, Hashable {
    /// The file name without `.sql`.
    let name: String
    /// The file's text.
    let text: String
    /// The text of its `<name>.citus.sql` form, where it has one.
    let citusText: String?

    /// The text to run on `dialect`: on Citus the `.citus.sql` form where there is one.
    func text(on dialect: QueryDialect) -> String {
        dialect == .citus ? citusText ?? text : text
    }

    /// The file's header (`SQLHeader`): for a query file, the prose that says what it does and what `$n` are.
    var header: SQLHeader { SQLHeader(parsing: text) }

    /// The statements of the file on `dialect`, split once per run: ingest runs the same few files for every input
    /// file, and splitting them each time was a fifth of the loading thread's own work, time the server spent
    /// waiting.
    func statements(on dialect: QueryDialect = .postgres) -> [SQLResources.QueryStatement] {
        let key = dialect == .citus && citusText != nil ? name + ".citus" : name
        if let statements = Self.split.withLock({ $0[key] }) { return statements }
        let statements = SQLResources.splitStatements(text(on: dialect)).map { statement in
            SQLResources.QueryStatement(
                text: statement, takesParameters: !SQLPlaceholders(scanning: statement).numbers.isEmpty)
        }
        Self.split.withLock { $0[key] = statements }
        return statements
    }

    private static let split = Mutex<[String: [SQLResources.QueryStatement]]>([:])
}

/// Reading the SQL built into this binary from `sql/`: statements, checksums.
enum SQLResources {
    /// One statement of a query file, and whether it names a placeholder (`$1`…).
    struct QueryStatement: Sendable {
        let text: String
        let takesParameters: Bool
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
