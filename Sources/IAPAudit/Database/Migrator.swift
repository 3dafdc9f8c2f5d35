package import Logging
package import Postgres

/// Brings a database's schema up to date with the migrations built into this binary.
///
/// Migrations are forward only: each file runs once, in its own transaction, and is recorded with a checksum; a
/// changed file that was already applied is refused rather than silently re-interpreted. Views are not migrations:
/// after the numbered files, each view in `sql/views/` is re-created when its text changed (`applyViews`).
package struct Migrator {
    /// One migration: `0001_create_core.sql` has version 1.
    package struct Migration: Sendable {
        package let version: Int
        package let name: String
        package let text: String
        package var checksum: String { SQLResources.checksum(text) }

        /// A migration from its parts (tests build altered ones).
        package init(version: Int, name: String, text: String) {
            self.version = version
            self.name = name
            self.text = text
        }
    }

    /// Advisory-lock key serialising concurrent migrators ("IAPMIGR" in ASCII).
    static let lockKey: Int64 = 0x4941_504D_4947_52

    /// The migrations built into this binary, in order.
    package static var builtIn: [Migration] {
        EmbeddedResources.migrations.compactMap { file in
            guard let version = Int(file.name.prefix { $0.isNumber }) else { return nil }
            return Migration(version: version, name: file.name, text: file.text)
        }.sorted { $0.version < $1.version }
    }

    let migrations: [Migration]
    /// The views to keep current; nil for those built in, in the connected server's dialect.
    private let viewDefinitions: [ViewDefinition]?
    let logger: Logger

    /// A migrator for `migrations` (normally `builtIn`) and `views` (normally those built in).
    package init(migrations: [Migration] = Migrator.builtIn, views: [ViewDefinition]? = nil, logger: Logger) {
        self.migrations = migrations
        self.viewDefinitions = views
        self.logger = logger
    }

    /// The views this migrator keeps current on `connection`, each after those it reads.
    func views(for connection: Connection) throws -> [ViewDefinition] {
        if let viewDefinitions { return try ViewDefinition.inDependencyOrder(viewDefinitions) }
        return try ViewDefinition.builtIn(for: QueryDialect.of(connection))
    }

    /// Applies every pending migration, then every changed view; returns the versions applied.
    @discardableResult
    package func migrate(_ connection: Connection) throws -> [Int] {
        try connection.transaction {
            try connection.advisoryTransactionLock(Self.lockKey)
            try connection.execute(
                script: SQLQuery.schemaMigrationCreate.text, context: "create schema_migration")
        }
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try connection.transaction { () throws -> Bool in
                // Under the lock, re-read what is applied: another process may have just done it.
                try connection.advisoryTransactionLock(Self.lockKey)
                let recorded = try connection.query(
                    "SELECT checksum FROM schema_migration WHERE version = $1", [migration.version],
                    context: "read schema_migration")
                if recorded.rowCount > 0 {
                    guard try recorded.first(String.self, "checksum") == migration.checksum else {
                        throw IAPAuditError.migrationChanged(name: migration.name)
                    }
                    return false
                }
                try connection.execute(script: migration.text, context: "migration \(migration.name)")
                try connection.query(
                    "INSERT INTO schema_migration (version, name, checksum) VALUES ($1, $2, $3)",
                    [migration.version, migration.name, migration.checksum], context: "record migration")
                return true
            }
            if didApply {
                logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
                applied.append(migration.version)
            }
        }
        // NULL only while no migration is recorded; a non-integer would be a broken table and must not read as 0.
        let newest =
            try connection.query("SELECT max(version) AS newest FROM schema_migration").first(Int?.self, "newest") ?? 0
        if let known = migrations.last?.version, newest > known {
            throw IAPAuditError.schemaNewerThanBinary(database: newest, binary: known)
        }
        // Only now: a binary older than the schema must not put its older views back.
        try applyViews(connection)
        return applied
    }
}
