internal import EmbeddedPostgres
internal import Foundation
package import Logging

/// The embedded PostgreSQL server under `IAP_AUDIT_HOME`, for `iap-audit db start|stop|status|url|psql`.
///
/// Failures of PostgreSQL or the server supervisor arrive as `IAPAuditError`s carrying their exit code.
package struct EmbeddedDatabase: Sendable {
    /// Whether the server runs.
    package enum Status: Sendable, Equatable {
        /// No cluster yet.
        case notInitialised
        /// A cluster exists, no server runs.
        case stopped
        /// The postmaster `pid` runs.
        case running(pid: Int32)
    }

    private let server: EmbeddedServer

    /// The server of `environment`'s `IAP_AUDIT_HOME`, run with the PostgreSQL installation found on this machine.
    package init(environment: [String: String]) throws {
        do {
            server = EmbeddedServer(
                home: EmbeddedServer.defaultHome(environment: environment),
                installation: try PostgresInstallation.find(environment: environment, searchRoot: "/"))
        } catch {
            throw IAPAuditError.wrapping(error) ?? error
        }
    }

    /// The folder that holds the cluster.
    package var home: String { server.home }

    /// Starts the server (idempotent) and returns the connection string of `database`.
    package func start(database: String = DatabaseLocation.embeddedDatabaseName) throws -> String {
        do {
            return try server.start().connectionString(database: database)
        } catch {
            throw IAPAuditError.wrapping(error) ?? error
        }
    }

    /// Stops the server if it runs.
    package func stop() throws {
        do {
            try server.stop()
        } catch {
            throw IAPAuditError.wrapping(error) ?? error
        }
    }

    /// Whether the server runs.
    package func status() -> Status {
        switch server.status() {
        case .notInitialised: .notInitialised
        case .stopped: .stopped
        case .running(let pid): .running(pid: pid)
        }
    }

    /// The connection string of `database` as the pipeline's role (the server need not run); it holds no password,
    /// the server admits this OS user by peer authentication.
    package func connectionString(database: String) -> String {
        server.endpoint.connectionString(database: database)
    }

    /// The connection string of `database` as the server's administrator, a superuser, for what the pipeline's role
    /// may not do (create databases, grant the analyst role); admitted by peer authentication like the pipeline.
    package func administratorConnectionString(database: String) -> String {
        server.endpoint.administratorConnectionString(database: database)
    }

    /// How to open psql: its argv, and what to tell the user first.
    package struct PSQLLaunch: Sendable {
        /// psql's argv; `arguments[0]` is an absolute path, ready for `execv`.
        package var arguments: [String]
        /// Set when the schema is older than this binary's: psql opens it as it is, and this says how to upgrade.
        package var schemaNotice: String?
    }

    /// Opens psql on the database `settings` name, after making sure the server runs and the database exists. The
    /// schema is left as it is: a shell is where a DBA looks at a database before upgrading it (docs/operating.md,
    /// "Schema upgrades").
    ///
    /// psql comes from the PostgreSQL installation for the embedded server, else from `PATH`. The connection string
    /// travels as an argument, never printed.
    package static func psql(
        settings: Settings, extraArguments: [String], logger: Logger
    ) throws -> PSQLLaunch {
        do {
            let connection = try settings.database.connect(
                environment: settings.environment, logger: logger, schema: .asFound)
            let schema = try Migrator(logger: logger).state(of: connection)
            let conninfo: String
            let psql: String?
            switch settings.database {
            case .url(let url):
                conninfo = url
                psql = PostgresInstallation.executable("psql", onPathOf: settings.environment)
            case .libpqEnvironment:
                conninfo = ""
                psql = PostgresInstallation.executable("psql", onPathOf: settings.environment)
            case .embedded(_, let database):
                let embedded = try EmbeddedDatabase(environment: settings.environment)
                conninfo = embedded.connectionString(database: database)
                psql = embedded.server.installation.executable("psql")
            }
            guard let psql else {
                throw IAPAuditError.input("cannot start psql: not found on PATH")
            }
            return PSQLLaunch(
                arguments: [psql] + (conninfo.isEmpty ? [] : [conninfo]) + extraArguments,
                schemaNotice: schema.isCurrent
                    ? nil
                    : "note: \(schema.standing); psql opens it as it is (`iap-audit init` "
                        + (schema.database == 0 ? "creates it)" : "upgrades it, after a backup)"))
        } catch {
            throw IAPAuditError.wrapping(error) ?? error
        }
    }
}
