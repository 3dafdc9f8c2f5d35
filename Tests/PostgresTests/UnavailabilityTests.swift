import EmbeddedPostgres
import Foundation
import Logging
import Postgres
import TestSupport
import Testing

@Suite struct UnavailabilityTests {
    @Test func aTerminatedBackendIsUnavailable() throws {
        let connection = try freshConnection()
        let pid = try connection.query("SELECT pg_backend_pid()").requireInt(0, 0)
        let killer = try freshConnection()
        #expect(try killer.query("SELECT pg_terminate_backend($1)", [pid]).requireBool(0, 0))
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.isUnavailable == true, "\(String(describing: error))")
    }

    @Test func aStoppedServerIsUnavailable() throws {
        // A server of its own: stopping the shared one would break the other tests.
        let server = try PrivateTestServer()
        defer { server.destroy() }
        let connection = try Connection(conninfo: server.conninfo, logger: TestPostgres.logger)
        #expect(try connection.query("SELECT 1").requireInt(0, 0) == 1)
        try server.stop()
        let error = #expect(throws: PostgresError.self) { try connection.query("SELECT 1") }
        #expect(error?.isUnavailable == true, "\(String(describing: error))")
        let reconnect = #expect(throws: PostgresError.self) {
            try Connection(conninfo: server.conninfo, logger: TestPostgres.logger)
        }
        #expect(reconnect?.isUnavailable == true)
    }

    @Test func statementErrorsAreNotUnavailable() throws {
        let connection = try freshConnection()
        let syntax = #expect(throws: PostgresError.self) { try connection.query("SELEC 1") }
        #expect(syntax?.sqlState == "42601")
        #expect(syntax?.kind == .statement)
        #expect(syntax?.isUnavailable == false)

        try connection.execute(
            script: "CREATE TABLE unique_keys (key int PRIMARY KEY); INSERT INTO unique_keys VALUES (1)")
        let duplicate = #expect(throws: PostgresError.self) {
            try connection.query("INSERT INTO unique_keys VALUES ($1)", [1])
        }
        #expect(duplicate?.isUniqueViolation == true)
        #expect(duplicate?.isUnavailable == false)
        #expect(try connection.query("SELECT 1").requireInt(0, 0) == 1, "the connection survives a statement error")
    }
}
