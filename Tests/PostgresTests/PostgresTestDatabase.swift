import Logging
import Postgres
import TestSupport

/// A connection to a fresh database on the tests' throw-away server.
func freshConnection() throws -> Connection {
    try Connection(conninfo: TestPostgres.freshDatabase(prefix: "pg"), logger: TestPostgres.logger)
}
