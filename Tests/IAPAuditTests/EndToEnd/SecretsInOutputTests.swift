import Foundation
import TestSupport
import Testing

/// What the binary prints for a user or a log shipper: never a password, one JSON object per line under
/// `--log-format json`, one line per event in the plain format, and a refused pepper file that others can read.
struct SecretsInOutputTests {
    static let brokenConnectionStrings = ["postgres://u:s3cret@/db?bogus=1", "host=/tmp password=s3cret dbname"]

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments, environment: environment, timeout: 120)
        #expect(!outcome.timedOut, "iap-audit \(arguments.prefix(2).joined(separator: " ")) hung")
        return outcome
    }

    /// Every non-empty line of `stderr` as a JSON object; records an issue for any line that is not one.
    static func jsonLines(_ stderr: String) -> [[String: Any]] {
        stderr.split(separator: "\n").compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            if object == nil { Issue.record("not a JSON object: \(line)") }
            return object
        }
    }

    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test(arguments: brokenConnectionStrings)
    func aBrokenConnectionStringIsNeverPrintedInThePlainFormat(conninfo: String) throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (arguments, environment) in [
            (["--database-url", conninfo], [:]), ([], ["DATABASE_URL": conninfo]),
        ] {
            let outcome = try Self.run(["ingest", "receipts", directory.path] + arguments, environment: environment)
            #expect(outcome.status == 69)
            #expect(
                outcome.stderr.contains("iap-audit: database unavailable: connect: the connection string is not valid"))
            #expect(!outcome.stderr.contains("s3cret") && !outcome.stdout.contains("s3cret"), "\(outcome.stderr)")
        }
    }

    @Test(arguments: brokenConnectionStrings)
    func aBrokenConnectionStringFailsAsOneJSONObjectWithoutThePassword(conninfo: String) throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = directory.appendingPathComponent("iap-audit.toml")
        try Data("[logging]\nformat = \"json\"\n".utf8).write(to: configuration)
        let runs: [([String], [String: String])] = [
            (["ingest", "receipts", directory.path, "--log-format", "json", "--database-url", conninfo], [:]),
            (["ingest", "receipts", directory.path, "--log-format", "json"], ["DATABASE_URL": conninfo]),
            // The format comes from the configuration file here, not from a flag.
            (["run", "--config", configuration.path, "--receipts", directory.path], ["DATABASE_URL": conninfo]),
        ]
        for (arguments, environment) in runs {
            let outcome = try Self.run(arguments, environment: environment)
            #expect(outcome.status == 69)
            #expect(!outcome.stderr.contains("s3cret") && !outcome.stdout.contains("s3cret"), "\(outcome.stderr)")
            let lines = Self.jsonLines(outcome.stderr)
            let failure = try #require(lines.last)
            #expect(failure["level"] as? String == "error")
            #expect(failure["exit_code"] as? Int == 69)
            #expect(failure["time"] is String)
            #expect((failure["message"] as? String)?.contains("the connection string is not valid") == true)
        }
    }

    @Test func aFailureBeforeTheConfigurationLoadsIsJSONWhenTheFlagSaysSo() throws {
        let outcome = try Self.run(["run", "--log-format", "json", "--config", "/nonexistent/iap-audit.toml"])
        #expect(outcome.status == 78)
        let failure = try #require(Self.jsonLines(outcome.stderr).last)
        #expect(failure["exit_code"] as? Int == 78)
    }

    @Test func aPepperFileOthersCanReadIsRefusedWithExit78() throws {
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pepper = directory.appendingPathComponent("pepper")
        try Data("pepper-of-thirty-two-bytes-long!\n".utf8).write(to: pepper)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pepper.path)
        let refused = try Self.run(["hash-username", "alice"], environment: ["IAP_AUDIT_PEPPER_FILE": pepper.path])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("chmod 600 \(pepper.path)"))
        #expect(refused.stdout.isEmpty)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: pepper.path)
        let accepted = try Self.run(["hash-username", "alice"], environment: ["IAP_AUDIT_PEPPER_FILE": pepper.path])
        #expect(accepted.status == 0)
    }

    @Test func aFileNameWithANewlineCannotForgeALogLine() throws {
        let test = try TestWorkspace()
        let receipt = HostileInputTests.receipt(transaction: "1000000001") + "\n"
        try test.write("spool/evil\nforged line.jsonl", receipt)
        try test.write("spool/normal.jsonl", HostileInputTests.receipt(transaction: "1000000002") + "\n")
        let spool = test.directory.appendingPathComponent("spool").path
        let outcome = try Self.run(
            ["ingest", "receipts", "--database-url", test.conninfo, "--log-level", "debug", spool],
            environment: ["IAP_AUDIT_SETTLING_SECONDS": "0"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("forged line") }, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(#"evil\nforged line.jsonl""#), "\(outcome.stderr)")
    }
}
