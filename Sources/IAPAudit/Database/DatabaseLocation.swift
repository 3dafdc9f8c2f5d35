internal import EmbeddedPostgres
internal import Foundation
package import Logging
package import Postgres

/// Where the database is: a server the user configured, or the embedded default.
package enum DatabaseLocation: Sendable {
    /// A conninfo or URL given with `--database-url` or `DATABASE_URL`.
    case url(String)
    /// libpq's own `PG*` variables or service file decide (an empty conninfo).
    case libpqEnvironment
    /// The private server under `home`, database `database`.
    case embedded(home: String, database: String)

    /// Variables that mean the user configured libpq directly.
    static let libpqVariables = [
        "PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER", "PGSERVICE", "PGSERVICEFILE",
    ]

    /// The embedded server's default database.
    package static let embeddedDatabaseName = "iap_audit"

    /// Resolves the location the way the README documents: flag, then `DATABASE_URL`, then `PG*`, then embedded.
    package static func resolve(
        url: String?, environment: [String: String], embeddedDatabase: String = embeddedDatabaseName
    ) -> DatabaseLocation {
        if let url, !url.isEmpty { return .url(url) }
        if let url = environment["DATABASE_URL"], !url.isEmpty { return .url(url) }
        if libpqVariables.contains(where: { environment[$0].map { !$0.isEmpty } ?? false }) { return .libpqEnvironment }
        return .embedded(home: EmbeddedServer.defaultHome(environment: environment), database: embeddedDatabase)
    }

    /// A description safe to log: never a password (also what `description` and string interpolation give, so a
    /// location printed by mistake shows no connection string either).
    package var redactedDescription: String {
        switch self {
        case .url: "the server named by --database-url / DATABASE_URL"
        case .libpqEnvironment: "the server named by the PG* environment variables"
        case .embedded(let home, let database): "embedded server in \(home), database \(database)"
        }
    }

    /// Connects (starting the embedded server and creating its database when needed), then does with the schema what
    /// `schema` says: migrates it (the views in the forms its server runs) and, on a Citus coordinator, places the
    /// tables; or refuses it unless current; or takes it as found.
    package func connect(
        environment: [String: String], logger: Logger, schema: SchemaUse = .upgrade
    ) throws
        -> Connection
    {
        let connection: Connection
        do {
            switch self {
            case .url(let url):
                connection = try Connection(conninfo: url, logger: logger)
            case .libpqEnvironment:
                connection = try Connection(conninfo: "", logger: logger)
            case .embedded(let home, let database):
                let installation = try PostgresInstallation.find(environment: environment, searchRoot: "/")
                let server = EmbeddedServer(home: home, installation: installation, logger: logger)
                let endpoint = try server.start()
                EmbeddedServerLog.watch(server)
                try Self.createDatabaseIfNeeded(database, endpoint: endpoint, logger: logger)
                connection = try Connection(conninfo: endpoint.connectionString(database: database), logger: logger)
            }
        } catch let error as PostgresError {
            // `Connection` has already redacted the connection string and password from libpq's message.
            throw error.isUnavailable ? IAPAuditError.databaseUnavailable(error) : IAPAuditError.database(error)
        }
        if schema == .upgrade { try Migrator(logger: logger).migrate(connection) }
        if try CitusDistribution.isPresent(on: connection) {
            if schema == .upgrade { try CitusDistribution.placeTables(connection, logger: logger) }
            try CitusDistribution.configureSession(connection)
        }
        // Otherwise nothing changes (an analyst's role may neither create nor lock); a reading command still refuses
        // a schema its queries were not written for.
        if schema == .requireCurrent { try Migrator(logger: logger).state(of: connection).requireCurrent() }
        return connection
    }

    /// Creates `database` as the superuser, owned by the pipeline's role, so that the pipeline itself (which
    /// connects as that role) needs neither CREATEDB nor superuser rights.
    private static func createDatabaseIfNeeded(
        _ database: String, endpoint: EmbeddedServer.Endpoint, logger: Logger
    ) throws {
        let exists =
            try Connection(conninfo: endpoint.connectionString(database: "postgres"), logger: logger)
            .query("SELECT 1 FROM pg_database WHERE datname = $1", [database]).rowCount > 0
        guard !exists else { return }
        let admin = try Connection(
            conninfo: endpoint.administratorConnectionString(database: "postgres"), logger: logger)
        // Identifiers cannot be bound parameters; quote them the way PostgreSQL's quote_ident does.
        let quoted = quotedIdentifier(database)
        do {
            try admin.execute(
                script: "CREATE DATABASE \(quoted) OWNER \(quotedIdentifier(endpoint.user))",
                context: "create database \(database)")
            logger.info("created database", metadata: ["database": "\(database)"])
        } catch {
            // Another process created it first, which is fine: 42P04 when its CREATE had committed before this one
            // began, 23505 (pg_database's unique name) when the two ran at once — `init & init` on a fresh home.
            guard error.sqlState == "42P04" || error.isUniqueViolation else { throw error }
            logger.debug("database created by another process at the same time", metadata: ["database": "\(database)"])
        }
    }

    private static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension DatabaseLocation: CustomStringConvertible, CustomDebugStringConvertible {
    package var description: String { redactedDescription }
    package var debugDescription: String { redactedDescription }
}

/// What opening a database does with a schema older than this binary's.
package enum SchemaUse: Sendable {
    /// Brings it up to date first: the commands that write the pipeline's data (and `init`, which does only that).
    case upgrade
    /// Leaves it as it is and refuses it (`IAPAuditError.schemaOlderThanBinary`): the commands that only read
    /// (`report`, `catalog export`, `flags`, `evidence export`), whose queries are written for this binary's schema.
    case requireCurrent
    /// Leaves it as it is, unchecked: `db psql`, which says itself where the schema stands, and a second connection
    /// to a database the first one already judged.
    case asFound
}
