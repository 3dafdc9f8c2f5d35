import Foundation
import TestSupport
import Testing

/// `iap-audit db psql` against a configured server: psql found on PATH, the conninfo passed, never printed.
struct DatabaseCommandTests {
    @Test func psqlRunsThePsqlOnPathAgainstTheConfiguredDatabase() throws {
        let test = try TestWorkspace()
        let result = try BinaryUnderTest.run([
            "db", "psql", "--database-url", test.conninfo, "-XAtc", "SELECT count(*) > 0 FROM schema_migration",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "t\n")
        // Nothing else either: the schema is current, so there is no note about it (ReadingCommandSchemaTests).
        #expect(result.stderr == "")
    }

    @Test func psqlMissingFromPathExitsSixtySixWithoutTheConnectionString() throws {
        let test = try TestWorkspace()
        let empty = try TemporaryDirectory()
        let result = try BinaryUnderTest.run(
            ["db", "psql", "--database-url", test.conninfo], environment: ["PATH": empty.url.path])
        #expect(result.status == 66)
        #expect(result.stderr == "iap-audit: cannot start psql: not found on PATH\n")
        #expect(!result.stdout.contains(test.conninfo))
    }
}
