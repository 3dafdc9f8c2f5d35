package import Postgres

/// Where a database's schema stands against this binary's, read without changing it: what a command that only reads
/// checks instead of migrating (docs/operating.md, "Schema upgrades").
package struct SchemaState: Sendable, Equatable {
    /// The newest numbered migration the database records; 0 when it has none (no iap-audit schema yet).
    package var database: Int
    /// The newest numbered migration this binary has.
    package var binary: Int
    /// This binary's numbered migrations the database has not applied.
    package var missingMigrations: Int
    /// This binary's views whose text the database does not have (counted only once every migration is applied).
    package var changedViews: Int

    /// Whether `iap-audit init` (any writing command) would change nothing.
    package var isCurrent: Bool { missingMigrations == 0 && changedViews == 0 }

    /// Where the schema stands, as a user reads it ("the database schema is at version 24, older than …").
    package var standing: String { Self.standing(database: database, binary: binary) }

    static func standing(database: Int, binary: Int) -> String {
        if database == 0 { return "the database has no iap-audit schema yet (this iap-audit's is version \(binary))" }
        if database == binary {
            return "the database's views are older than this iap-audit's (schema version \(binary))"
        }
        return "the database schema is at version \(database), older than this iap-audit's (\(binary))"
    }

    /// Refuses a schema that is not current: what a reading command does rather than read tables and views this
    /// binary's queries were not written for.
    package func requireCurrent() throws {
        guard isCurrent else { throw IAPAuditError.schemaOlderThanBinary(database: database, binary: binary) }
    }
}

extension Migrator {
    /// Where `connection`'s schema stands against this migrator's, taking no lock and changing nothing. A schema newer
    /// than this binary is refused here as `migrate` refuses it.
    package func state(of connection: Connection) throws -> SchemaState {
        let binary = migrations.last?.version ?? 0
        let ledger = try connection.query(
            "SELECT to_regclass('schema_migration') IS NOT NULL AS present", context: "look for schema_migration")
        guard try ledger.first(Bool.self, "present") else {
            return SchemaState(database: 0, binary: binary, missingMigrations: migrations.count, changedViews: 0)
        }
        let recorded = try connection.query(
            SQLQuery.schemaMigrationState.text, [migrations.map { String($0.version) }],
            context: "read schema_migration")
        var state = SchemaState(
            database: try recorded.first(Int.self, "newest"), binary: binary,
            missingMigrations: try recorded.first(Int.self, "missing"), changedViews: 0)
        if state.database > binary {
            throw IAPAuditError.schemaNewerThanBinary(database: state.database, binary: binary)
        }
        // schema_view (0028) exists once every migration is applied; before, the views are behind anyway.
        if state.missingMigrations == 0 {
            state.changedViews = try pendingViews(views(for: connection), connection).count
        }
        return state
    }
}
