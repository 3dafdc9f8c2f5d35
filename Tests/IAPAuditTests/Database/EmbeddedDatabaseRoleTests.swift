import EmbeddedPostgres
import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// The embedded default: the pipeline connects as a role that owns its database and is no superuser.
@Suite struct EmbeddedDatabaseRoleTests {
    @Test func thePipelineRoleOwnsTheMigratedDatabaseButCannotRunPrograms() throws {
        let home = TestPostgres.home + "/roles-\(UUID().uuidString.prefix(8))"
        let server = EmbeddedServer(home: home, installation: try PostgresInstallation.find())
        defer { try? server.destroy() }
        let environment = ["IAP_AUDIT_HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? ""]

        let connection = try DatabaseLocation.embedded(home: home, database: "audit")
            .connect(environment: environment, logger: TestPostgres.logger)
        let facts = try connection.query(
            """
            SELECT current_user, rolsuper, rolcreaterole,
                   (SELECT datdba::regrole::text FROM pg_database WHERE datname = current_database()),
                   (SELECT count(*) FROM pg_class WHERE relowner <> 'iap_audit_owner'::regrole
                      AND relnamespace = 'public'::regnamespace),
                   has_table_privilege('iap_audit_analyst', 'flags_open', 'SELECT')
            FROM pg_roles WHERE rolname = current_user
            """)
        #expect(facts.string(0, 0) == EmbeddedServer.ownerRole)
        #expect(facts.string(0, 1) == "f")
        #expect(facts.string(0, 2) == "f")
        #expect(facts.string(0, 3) == EmbeddedServer.ownerRole)
        #expect(facts.string(0, 4) == "0", "every object the migrations made is the owner's")
        #expect(facts.string(0, 5) == "t", "the analyst role exists and migration 0003 granted to it")
        let program = #expect(throws: PostgresError.self) {
            try connection.query("COPY (SELECT 1) TO PROGRAM 'true'")
        }
        #expect(program?.sqlState == "42501")

        // What `iap-audit db url` prints works as it is for the same OS user, and holds no password.
        let url = try BinaryUnderTest.run(["db", "url", "--database", "audit"], environment: environment)
        #expect(url.status == 0, "\(url.stderr)")
        let conninfo = url.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!conninfo.contains("password"))
        let again = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        #expect(try again.query("SELECT count(*) > 0 FROM schema_migration").string(0, 0) == "t")
        let administrator = try BinaryUnderTest.run(
            ["db", "url", "--administrator", "--database", "postgres"], environment: environment)
        let admin = try Connection(
            conninfo: administrator.stdout.trimmingCharacters(in: .whitespacesAndNewlines), logger: TestPostgres.logger)
        #expect(try admin.query("SELECT rolsuper FROM pg_roles WHERE rolname = current_user").string(0, 0) == "t")

        let psql = try BinaryUnderTest.run(
            ["db", "psql", "-XAtc", "SELECT current_user || ',' || current_database()"],
            environment: environment)
        #expect(psql.status == 0, "\(psql.stderr)")
        #expect(psql.stdout == "\(EmbeddedServer.ownerRole),iap_audit\n")
    }
}
