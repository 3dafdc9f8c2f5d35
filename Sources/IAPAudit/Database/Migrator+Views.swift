internal import Logging
package import Postgres

extension Migrator {
    /// (Re-)creates each view whose text differs from the one recorded in `schema_view`, or that is missing (a
    /// numbered migration dropped it to change a table under it), in dependency order, in one transaction; grants
    /// SELECT to its `readers`. Runs after the numbered migrations, as Flyway runs its repeatable ones. Returns the
    /// names of the views it created.
    @discardableResult
    package func applyViews(_ connection: Connection) throws -> [String] {
        let views = try views(for: connection)
        guard try !pendingViews(views, connection).isEmpty else { return [] }
        return try connection.transaction {
            // Under the lock, look again: another process may have just done it.
            try connection.advisoryTransactionLock(Self.lockKey)
            let pending = try pendingViews(views, connection)
            for view in pending {
                try connection.execute(script: view.text, context: "view \(view.name)")
                try grant(view, connection)
                try connection.query(
                    SQLQuery.schemaViewRecord.text, [view.name, view.checksum], context: "record view")
                logger.info("applied view", metadata: ["view": "\(view.name)"])
            }
            return pending.map(\.name)
        }
    }

    /// The views, in order, whose text is not the recorded one or that do not exist.
    func pendingViews(_ views: [ViewDefinition], _ connection: Connection) throws -> [ViewDefinition] {
        let current = try connection.query(
            SQLQuery.schemaViewPending.text, [views.map(\.name), views.map(\.checksum)], context: "read schema_view")
        let pending = Set(try current.allRows.map { try $0.decode(String.self, "name") })
        return views.filter { pending.contains($0.name) }
    }

    /// Roles are cluster-wide and created by a DBA where the migrating role cannot: a reader that does not exist yet
    /// is skipped, as the numbered migrations did (docs/operating.md, "The analyst role").
    private func grant(_ view: ViewDefinition, _ connection: Connection) throws {
        let statements = try connection.query(
            SQLQuery.viewGrants.text, [view.name, view.readers], context: "grant view \(view.name)")
        for statement in try statements.allRows.map({ try $0.decode(String.self, "statement") }) {
            try connection.execute(script: statement, context: "grant view \(view.name)")
        }
    }
}
