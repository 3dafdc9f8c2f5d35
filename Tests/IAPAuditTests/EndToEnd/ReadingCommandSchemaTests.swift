import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// Commands that only read (`db psql`, `report`, `catalog export`) never change the schema: on a database an older
/// iap-audit migrated, psql opens it as it is and says how to upgrade; the others refuse with exit 79 and the same
/// advice, and work once `init` has upgraded it (docs/operating.md, "Schema upgrades").
struct ReadingCommandSchemaTests {
    /// An older binary's newest migration: three before this one's (after 0028, which records the view files).
    static let older = Migrator.builtIn.dropLast(3).last?.version ?? 0

    /// A database an older binary migrated (numbered migrations up to `older`; no view files: `views: []`).
    static func olderDatabase() throws -> (conninfo: String, connection: Connection) {
        let conninfo = try TestPostgres.freshDatabase()
        let connection = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        let migrations = Migrator.builtIn.filter { $0.version <= older }
        try Migrator(migrations: migrations, views: [], logger: TestPostgres.logger).migrate(connection)
        return (conninfo, connection)
    }

    static func newest(_ connection: Connection) throws -> Int {
        try connection.query("SELECT max(version) AS newest FROM schema_migration").first(Int.self, "newest")
    }

    static let binary = Migrator.builtIn.last?.version ?? 0

    @Test func psqlOpensAnOlderSchemaAsItIsAndSaysHowToUpgrade() throws {
        let (conninfo, connection) = try Self.olderDatabase()
        let result = try BinaryUnderTest.run([
            "db", "psql", "--database-url", conninfo, "-XAtc", "SELECT max(version) FROM schema_migration",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(Self.older)\n")
        #expect(
            result.stderr
                == "iap-audit: note: the database schema is at version \(Self.older), older than this iap-audit's "
                + "(\(Self.binary)); psql opens it as it is (`iap-audit init` upgrades it, after a backup)\n")
        #expect(try Self.newest(connection) == Self.older)
    }

    @Test(arguments: [["report", "quarantine"], ["report", "--all", "--out"], ["catalog", "export", "--out"]])
    func aReadingCommandRefusesAnOlderSchemaWithoutChangingIt(_ command: [String]) throws {
        let (conninfo, connection) = try Self.olderDatabase()
        let out = try TemporaryDirectory()
        let arguments = command + (command.last == "--out" ? [out.url.path + "/out"] : [])
        let refused = try BinaryUnderTest.run(arguments + ["--database-url", conninfo])
        #expect(refused.status == 79, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "iap-audit: the database schema is at version \(Self.older), older than this iap-audit's (\(Self.binary)); "
                + "this command only reads and does not upgrade it: run `iap-audit init` (after a backup), then this "
                + "command again\n")
        #expect(try Self.newest(connection) == Self.older)
        #expect(!FileManager.default.fileExists(atPath: out.url.path + "/out"))

        let upgraded = try BinaryUnderTest.run(["init", "--database-url", conninfo])
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let again = try BinaryUnderTest.run(arguments + ["--database-url", conninfo])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func aDatabaseWithoutTheSchemaIsToldSoAndGetsNone() throws {
        let conninfo = try TestPostgres.freshDatabase()
        let refused = try BinaryUnderTest.run(["report", "quarantine", "--database-url", conninfo])
        #expect(refused.status == 79, "\(refused.stderr)")
        #expect(
            refused.stderr
                == "iap-audit: the database has no iap-audit schema yet (this iap-audit's is version \(Self.binary)); "
                + "this command only reads: name the database that holds the data (--database, --database-url), or "
                + "run `iap-audit init` to create the schema\n")
        let psql = try BinaryUnderTest.run(["db", "psql", "--database-url", conninfo, "-XAtc", "SELECT 1"])
        #expect(psql.status == 0, "\(psql.stderr)")
        #expect(
            psql.stderr
                == "iap-audit: note: the database has no iap-audit schema yet (this iap-audit's is version "
                + "\(Self.binary)); psql opens it as it is (`iap-audit init` creates it)\n")
        let connection = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        #expect(
            try connection.query("SELECT to_regclass('schema_migration') IS NULL AS absent").first(Bool.self, "absent"))
    }

    @Test func aReportRefusesViewsOlderThanTheBinarys() throws {
        let test = try TestWorkspace()
        try test.connection.query("UPDATE schema_view SET checksum = 'older' WHERE name = 'flags_open'")
        let refused = try BinaryUnderTest.run(["report", "quarantine", "--database-url", test.conninfo])
        #expect(refused.status == 79, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "the database's views are older than this iap-audit's (schema version \(Self.binary))"))
        #expect(
            try test.connection.query("SELECT checksum FROM schema_view WHERE name = 'flags_open'")
                .first(String.self, "checksum") == "older")
    }

    /// The analyst's commands and evidence export read flags with this binary's queries too: an older schema is
    /// refused before anything is read or written. The analyst role reads the migration ledger from migration 0039
    /// on, so on a schema older than that it is refused the ledger itself (77), told to have the schema brought up
    /// to date.
    @Test(arguments: [false, true])
    func triageAndEvidenceRefuseAnOlderSchema(asAnalyst: Bool) throws {
        let (conninfo, connection) = try Self.olderDatabase()
        let database = asAnalyst ? conninfo + " options='-c role=iap_audit_analyst'" : conninfo
        let out = try TemporaryDirectory()
        for command in [
            ["flags", "list"], ["flags", "show", "1"], ["flags", "dismiss", "1", "--reason", "duplicate"],
            ["evidence", "export", "receipt:1", "--out", out.url.path + "/bundle"],
        ] {
            let refused = try BinaryUnderTest.run(command + ["--database-url", database])
            #expect(refused.status == (asAnalyst ? 77 : 79), "\(command): \(refused.stderr)")
            let advice =
                asAnalyst
                ? "permission denied for table schema_migration"
                : "the database schema is at version \(Self.older), older than this iap-audit's"
            #expect(refused.stderr.contains(advice), "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("`iap-audit init`"), "\(command): \(refused.stderr)")
        }
        #expect(try Self.newest(connection) == Self.older)
        #expect(!FileManager.default.fileExists(atPath: out.url.path + "/bundle"))
    }
}
