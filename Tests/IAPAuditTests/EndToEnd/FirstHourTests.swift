import EmbeddedPostgres
import Foundation
import Postgres
import TestSupport
import Testing

/// The README's first hour, through the binary on an embedded server of its own: the demo, then the commands that
/// look at its data. They must reach the demo's database, not an empty one of their own.
@Suite(.serialized) struct FirstHourTests {
    @Test func theCommandsAfterTheDemoReachItsData() throws {
        let home = TestPostgres.home + "/first-hour-\(UUID().uuidString.prefix(8))"
        let server = EmbeddedServer(home: home, installation: try PostgresInstallation.find())
        defer { try? server.destroy() }
        let out = try TemporaryDirectory()
        let environment = ["IAP_AUDIT_HOME": home]

        let demo = try BinaryUnderTest.run(
            ["run", "--demo", "--out", out.url.path, "--log-level", "warning"], environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        // The demo says, at its end, how the other commands reach what it made.
        #expect(demo.stdout.contains("export IAP_AUDIT_DATABASE=iap_audit_demo"))
        #expect(demo.stdout.contains("--database iap_audit_demo"))

        func flagLines(_ arguments: [String], _ extra: [String: String] = [:]) throws -> Int {
            let result = try BinaryUnderTest.run(
                ["report", "flags", "--format", "csv"] + arguments,
                environment: environment.merging(extra) { $1 })
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\r\n").count - 1
        }
        let flags = try flagLines([], ["IAP_AUDIT_DATABASE": "iap_audit_demo"])
        #expect(flags > 10)
        #expect(try flagLines(["--database", "iap_audit_demo"]) == flags)
        // Without either, the default database, which the demo never touched: a report only reads, so it does not
        // create the schema there but says there is none (docs/operating.md, "Schema upgrades").
        let empty = try BinaryUnderTest.run(["report", "flags", "--format", "csv"], environment: environment)
        #expect(empty.status == 79)
        #expect(empty.stderr.contains("the database has no iap-audit schema yet"))
        #expect(empty.stderr.contains("name the database that holds the data (--database, --database-url)"))

        let psql = try BinaryUnderTest.run(
            ["db", "psql", "--database", "iap_audit_demo", "-XAtc", "SELECT count(*) FROM flags_open"],
            environment: environment)
        #expect(psql.status == 0, "\(psql.stderr)")
        #expect(psql.stdout == "\(flags)\n")
        #expect(
            try BinaryUnderTest.run(
                ["db", "url"], environment: environment.merging(["IAP_AUDIT_DATABASE": "iap_audit_demo"]) { $1 }
            )
            .stdout.contains("dbname=iap_audit_demo"))

        // `db psql --help` is the command's own help, not psql's.
        let help = try BinaryUnderTest.run(["db", "psql", "--help"], environment: environment)
        #expect(help.status == 0)
        #expect(help.stdout.contains("--database <name>") && help.stdout.contains("-- --help"))
        #expect(!help.stdout.contains("psql is the PostgreSQL interactive terminal"))

        let bad = try BinaryUnderTest.run(["report", "flags", "--database", "demo; DROP"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--database takes a database name"))
    }

    /// `examples/iap-audit.toml` as shipped is a starting point that works: it reads the sales reports too, trusts the
    /// examples' test root, covers all their history, and writes outside the demo's out/.
    @Test func theShippedExampleConfigurationRunsCleanlyOnTheExamples() throws {
        let test = try TestWorkspace()
        let examples = ReportSiteTests.examples
        let check = try BinaryUnderTest.run(["config", "check", examples + "/iap-audit.toml"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("output.directory = \"" + (examples as NSString).deletingLastPathComponent))
        #expect(!check.stdout.contains("/out\""), "the example configuration writes into the demo's out/")
        // One setting a line, like every other, not one long JSON line.
        #expect(check.stdout.contains("detection.refund_abuse.window_days = 90  # default"))

        let out = try TemporaryDirectory()
        let run = try BinaryUnderTest.run([
            "run", "--config", examples + "/iap-audit.toml", "--database-url", test.conninfo, "--out", out.url.path,
            "--log-level", "warning",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("sales reports:"))
        #expect(run.stdout.contains("reconciliation: "))
        // Only the one planted untrusted chain, not every signed record of the examples.
        let signed = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("signed objects:") })
        #expect(signed.contains(" 1 untrusted-chain"), "\(signed)")
        let forged =
            try test.connection.query(
                "SELECT count(*)::int FROM flags_open WHERE rule = 'forged-signature'"
            ).int(0, 0) ?? -1
        #expect(forged > 0 && forged < 10, "forged-signature flags: \(forged)")
    }
}
