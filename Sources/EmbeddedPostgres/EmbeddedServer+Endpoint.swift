import Foundation

extension EmbeddedServer {
    /// Where a started server accepts connections.
    package struct Endpoint: Sendable, Equatable {
        /// The directory holding the server's Unix socket (libpq's `host`).
        package let socketDirectory: String
        /// The port number that names the socket file (`.s.PGSQL.<port>`).
        package let port: Int
        /// The role the pipeline connects as: it owns the databases, and it is no superuser.
        package let user: String
        /// The bootstrap superuser, for administration only (creating databases and roles).
        package let administrator: String

        /// Describes a server listening in `socketDirectory`.
        package init(
            socketDirectory: String, port: Int, user: String, administrator: String = EmbeddedServer.superuser
        ) {
            self.socketDirectory = socketDirectory
            self.port = port
            self.user = user
            self.administrator = administrator
        }

        /// A libpq keyword/value connection string for `database` on this server, as the pipeline's role.
        ///
        /// It holds no password: the server authenticates the connecting OS user (`peer`).
        package func connectionString(database: String) -> String {
            connectionString(database: database, user: user)
        }

        /// A connection string for `database` as the superuser: for creating databases and roles, never for the
        /// pipeline's own work.
        package func administratorConnectionString(database: String) -> String {
            connectionString(database: database, user: administrator)
        }

        private func connectionString(database: String, user: String) -> String {
            [
                ("host", socketDirectory), ("port", String(port)), ("user", user), ("dbname", database),
            ]
            .map { "\($0.0)=\(Self.conninfoValue($0.1))" }
            .joined(separator: " ")
        }

        /// Quotes a value the way libpq's conninfo parser expects: single quotes, with `\` and `'` escaped.
        private static func conninfoValue(_ value: String) -> String {
            let needsQuotes = value.isEmpty || value.contains { $0.isWhitespace || $0 == "'" || $0 == "\\" }
            guard needsQuotes else { return value }
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
            return "'\(escaped)'"
        }
    }
}
