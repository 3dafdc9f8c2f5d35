import IAPAudit
import Postgres
import TestSupport
import Testing

struct MigratorTests {
    @Test func appliesEveryMigrationOnceAndRecordsItsChecksum() throws {
        let test = try TestWorkspace()
        let applied = try test.connection.query("SELECT version, checksum FROM schema_migration ORDER BY version")
        #expect(applied.rowCount == Migrator.builtIn.count)
        #expect(applied.string(0, 1) == Migrator.builtIn.first?.checksum)
        #expect(try Migrator(logger: TestPostgres.logger).migrate(test.connection).isEmpty)
    }

    @Test func refusesAMigrationThatChangedAfterItWasApplied() throws {
        let test = try TestWorkspace()
        var changed = Migrator.builtIn
        let first = changed[0]
        changed[0] = Migrator.Migration(version: first.version, name: first.name, text: first.text + "\n-- edited\n")
        #expect {
            try Migrator(migrations: changed, logger: TestPostgres.logger).migrate(test.connection)
        } throws: { error in
            "\(error)".contains("was changed after it was applied")
        }
    }

    @Test func refusesADatabaseNewerThanTheBinary() throws {
        let test = try TestWorkspace()
        try test.connection.query(
            "INSERT INTO schema_migration (version, name, checksum) VALUES (9999, '9999_future.sql', 'x')")
        #expect {
            try Migrator(logger: TestPostgres.logger).migrate(test.connection)
        } throws: { error in
            "\(error)".contains("newer than this iap-audit")
        }
    }

    @Test func aFailingMigrationLeavesNothingBehind() throws {
        let test = try TestWorkspace()
        let broken = Migrator.Migration(
            version: 9000, name: "9000_broken.sql", text: "CREATE TABLE half_done (id int);\nSELECT 1/0;")
        #expect(throws: PostgresError.self) {
            try Migrator(migrations: Migrator.builtIn + [broken], logger: TestPostgres.logger).migrate(test.connection)
        }
        #expect(try test.count("SELECT count(*) FROM pg_tables WHERE tablename = 'half_done'") == 0)
        #expect(try test.count("SELECT count(*) FROM schema_migration WHERE version = 9000") == 0)
    }
}
