import Foundation
import IAPAudit
import TestSupport
import Testing

/// Issue 31, item 4: every setting resolved in one function, flags over environment over file over defaults, tested
/// here without ArgumentParser.
struct ResolvedSettingsTests {
    /// Writes `text` as a configuration file in a fresh directory and returns its path.
    static func file(_ text: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resolve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("iap-audit.toml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func resolve(
        file: String? = nil, environment: [String: String] = [:],
        _ adjust: (inout CommandLineOptions) -> Void = { _ in }
    ) throws -> ResolvedSettings {
        var options = CommandLineOptions()
        options.configPath = file
        adjust(&options)
        return try ResolvedSettings.resolve(options, environment: environment)
    }

    @Test func flagsBeatTheEnvironmentWhichBeatsTheFileWhichBeatsTheDefault() throws {
        let file = try Self.file("[output]\ndirectory = \"/from/file\"\n[reconciliation]\ntime_zone = \"Asia/Tokyo\"\n")
        let environment = ["IAP_AUDIT_OUTPUT_DIR": "/from/environment", "IAP_AUDIT_TIME_ZONE": "Europe/Berlin"]
        #expect(try Self.resolve().configuration.outputDirectory == "out")
        #expect(try Self.resolve(file: file).configuration.outputDirectory == "/from/file")
        let fromEnvironment = try Self.resolve(file: file, environment: environment)
        #expect(fromEnvironment.configuration.outputDirectory == "/from/environment")
        #expect(fromEnvironment.configuration.timeZone == "Europe/Berlin")
        let fromFlags = try Self.resolve(file: file, environment: environment) {
            $0.outputDirectory = "/from/flag"
            $0.timeZone = "UTC"
        }
        #expect(fromFlags.configuration.outputDirectory == "/from/flag")
        #expect(fromFlags.configuration.timeZone == "UTC")
        #expect(fromFlags.configuration.effectiveSettings.contains("output.directory = \"/from/flag\"  # flag"))
    }

    @Test func theDatabaseIsTheFlagThenDatabaseURLThenTheFileThenTheEmbeddedOne() throws {
        let file = try Self.file("[database]\nurl = \"postgresql:///from_file\"\n")
        func location(_ resolved: ResolvedSettings) -> String { "\(resolved.settings.database.redactedDescription)" }
        #expect(try Self.resolve(file: file).configuration.databaseURL == "postgresql:///from_file")
        let environment = ["DATABASE_URL": "postgresql:///from_environment"]
        #expect(
            try Self.resolve(file: file, environment: environment).configuration.databaseURL
                == environment["DATABASE_URL"])
        let flagged = try Self.resolve(file: file, environment: environment) { $0.databaseURL = "postgresql:///flag" }
        #expect(flagged.configuration.databaseURL == "postgresql:///flag")
        guard case .url(let url) = flagged.settings.database else {
            Issue.record("not a URL: \(location(flagged))")
            return
        }
        #expect(url == "postgresql:///flag")
    }

    @Test func theEmbeddedDatabaseIsTheFlagThenTheVariableButTheDemoKeepsItsOwn() throws {
        func name(_ resolved: ResolvedSettings) -> String? {
            if case .embedded(_, let database) = resolved.settings.database { return database }
            return nil
        }
        let home = ["IAP_AUDIT_HOME": "/tmp/unused-home"]
        #expect(name(try Self.resolve(environment: home)) == "iap_audit")
        let variable = home.merging(["IAP_AUDIT_DATABASE": "audit_b"]) { $1 }
        #expect(name(try Self.resolve(environment: variable)) == "audit_b")
        #expect(name(try Self.resolve(environment: variable) { $0.database = "audit_c" }) == "audit_c")
        #expect(
            name(try Self.resolve(environment: variable) { $0.defaultDatabase = "iap_audit_demo" }) == "iap_audit_demo")
    }

    @Test func secondsComeFromTheEnvironmentAndAnUnusableValueIsNamed() throws {
        let resolved = try Self.resolve(environment: [
            "IAP_AUDIT_LOCK_TIMEOUT": "5", "IAP_AUDIT_SERVER_TIMEOUT": "60", "IAP_AUDIT_SETTLING_SECONDS": "0",
        ])
        #expect(resolved.settings.lockTimeout == 5)
        #expect(resolved.settings.serverTimeout == 60)
        #expect(resolved.settings.settlingSeconds == 0)
        #expect(try Self.resolve().settings.lockTimeout == 120)
        #expect { try Self.resolve(environment: ["IAP_AUDIT_LOCK_TIMEOUT": "abc"]) } throws: {
            "\($0)".contains("IAP_AUDIT_LOCK_TIMEOUT")
        }
    }

    @Test func trustedRootsAddUpFlagThenVariableThenFile() throws {
        let file = try Self.file("[verification]\ntrusted_roots = \"/etc/file-root.der\"\n")
        let resolved = try Self.resolve(file: file, environment: ["IAP_AUDIT_TRUSTED_ROOTS": "/a.der:/b.der"]) {
            $0.trustedRoots = ["/flag-root.der"]
        }
        #expect(resolved.settings.trustedRootPaths == ["/flag-root.der", "/a.der", "/b.der", "/etc/file-root.der"])
    }

    @Test func flagsForStrictRehashAndLoggingAreKept() throws {
        let file = try Self.file("[logging]\nformat = \"json\"\nlevel = \"debug\"\n")
        let fromFile = try Self.resolve(file: file)
        #expect(fromFile.logFormat == .json)
        #expect(fromFile.logLevel == .debug)
        let flagged = try Self.resolve(file: file) {
            $0.logFormat = .plain
            $0.isStrict = true
            $0.isRehash = true
        }
        #expect(flagged.logFormat == .plain)
        #expect(flagged.logLevel == .debug)
        #expect(flagged.settings.isStrict && flagged.settings.isRehash)
    }

    @Test func aPasswordOnTheCommandLineIsWarnedAboutNeverRepeated() throws {
        let resolved = try Self.resolve { $0.databaseURL = "postgresql://audit:s3cret-word@db/audit" }
        #expect(resolved.warnings.count == 1)
        #expect(!resolved.warnings.joined().contains("s3cret-word"))
        #expect(!resolved.configuration.effectiveSettings.contains("s3cret-word"))
        #expect(try Self.resolve { $0.databaseURL = "postgresql://db/audit" }.warnings.isEmpty)
    }

    @Test func theRunPlanIsTheConfigurationsAndTheDemosOwnDirectoryUnlessFlagged() throws {
        let file = try Self.file("[inputs]\nreceipts = \"/spool/receipts\"\n[output]\ndirectory = \"/reports\"\n")
        let plan = try Self.resolve(file: file, environment: ["IAP_AUDIT_SALES": "/a:/b"]) { $0.reports = ["flags"] }
            .runPlan(examples: nil, fetch: true, isDryRun: true)
        #expect(plan.receiptPaths == ["/spool/receipts"])
        #expect(plan.salesPaths == ["/a", "/b"])
        #expect(plan.outputDirectory == "/reports")
        #expect(plan.reports == ["flags"])
        #expect(plan.isDryRun)
        let demo = try Self.resolve(environment: ["IAP_AUDIT_OUTPUT_DIR": "/elsewhere"])
            .runPlan(examples: "/examples", fetch: true, isDryRun: false)
        #expect(demo.outputDirectory == "out")
        #expect(demo.catalogPath == "/examples/catalog.json")
        let flagged = try Self.resolve { $0.outputDirectory = "/mine" }.runPlan(
            examples: "/examples", fetch: true, isDryRun: false)
        #expect(flagged.outputDirectory == "/mine")
    }

    /// One environment, one answer: a variable `run` refuses is refused by every command, before any work.
    @Test func everyCommandChecksTheEnvironmentAsRunDoes() throws {
        let test = try TestWorkspace()
        let input = try test.write("r.jsonl", HostileInputTests.receipt(transaction: "1") + "\n")
        let outcome = try BinaryUnderTest.run(
            ["ingest", "receipts", "--database-url", test.conninfo, input],
            environment: ["IAP_AUDIT_TIME_ZONE": "Mars/Olympus"], timeout: 120)
        #expect(outcome.status == 78, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("IAP_AUDIT_TIME_ZONE"))
        #expect(try test.count("SELECT count(*) FROM input_file") == 0)
    }
}
