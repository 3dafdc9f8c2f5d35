import EmbeddedPostgres
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// The analyst role reads; it cannot take the pipeline's locks (a session holding the run's lock made every run,
/// ingest and detect exit 75), fill the disk with large objects, or make objects in the server's own databases
/// (issue 30, item 4).
struct AnalystCannotStopThePipelineTests {
    /// Runs `sql` as the analyst on `connection` and returns the SQLSTATE it failed with (nil: it succeeded).
    static func refusal(_ sql: String, on connection: Connection) throws -> String? {
        try connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { try? connection.execute(script: "RESET ROLE") }
        let result = Result { try connection.execute(script: sql) }
        guard case .failure(let error) = result else { return nil }
        return (error as? PostgresError)?.sqlState ?? "\(error)"
    }

    @Test func theAnalystCannotTakeTheRunLockAndEveryRunGoesOn() throws {
        let test = try TestWorkspace()
        let analyst = try Connection(conninfo: test.conninfo, logger: TestPostgres.logger)
        for lock in [
            "SELECT pg_advisory_lock(\(Workspace.runLockKey))", "SELECT pg_try_advisory_lock(\(Workspace.runLockKey))",
            "SELECT pg_advisory_lock_shared(\(Workspace.runLockKey))", "BEGIN; SELECT pg_advisory_xact_lock(1); COMMIT",
        ] {
            #expect(try Self.refusal(lock, on: analyst) == "42501", "\(lock)")
            _ = try? analyst.execute(script: "ROLLBACK")
        }
        let input = try test.write("r.jsonl", HostileInputTests.receipt(transaction: "1") + "\n")
        for command in [["ingest", "receipts", input], ["detect"]] {
            let outcome = try BinaryUnderTest.run(
                command + ["--database-url", test.conninfo], environment: ["IAP_AUDIT_LOCK_TIMEOUT": "5"], timeout: 120)
            #expect(outcome.status == 0, "\(command): \(outcome.status) \(outcome.stderr)")
        }
    }

    @Test func theAnalystCannotCreateLargeObjects() throws {
        let test = try TestWorkspace()
        for create in [
            "SELECT lo_create(0)", "SELECT lo_creat(-1)", "SELECT lo_from_bytea(0, '\\x00'::bytea)",
        ] {
            #expect(try Self.refusal(create, on: test.connection) == "42501", "\(create)")
        }
        #expect(try test.count("SELECT count(*) FROM pg_largeobject_metadata") == 0)
    }

    @Test func theAnalystCannotCreateAnythingInTheServersOwnDatabases() throws {
        let endpoint = try TestPostgres.endpoint()
        let maintenance = try Connection(
            conninfo: endpoint.connectionString(database: "postgres"), logger: TestPostgres.logger)
        for refused in [
            "CREATE TEMPORARY TABLE scratch (x int)",
            "CREATE FUNCTION pg_temp.leak() RETURNS int LANGUAGE sql AS 'SELECT 1'",
            "CREATE TABLE public.scratch (x int)",
        ] {
            #expect(try Self.refusal(refused, on: maintenance) == "42501", "\(refused)")
        }
        let privileges = try maintenance.query(
            """
            SELECT has_database_privilege('iap_audit_analyst', d, 'CONNECT'),
                   has_database_privilege('iap_audit_analyst', d, 'TEMPORARY')
            FROM unnest(ARRAY['postgres', 'template1']) AS d
            """)
        #expect(privileges.rows.allSatisfy { $0 == ["f", "f"] }, "\(privileges.rows)")
    }
}
