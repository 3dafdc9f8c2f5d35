import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// A setting or a parameter a user got wrong is told as the user's mistake — 64 or 78 naming what to fix, before any
/// work — never a crash (132), an internal error (70) or a silent default.
struct SettingsAndParametersTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments, environment: environment, timeout: 120)
        #expect(!outcome.timedOut, "iap-audit \(arguments.prefix(2).joined(separator: " ")) hung")
        return outcome
    }

    @Test(arguments: [
        ("IAP_AUDIT_LOCK_TIMEOUT", "1e400"), ("IAP_AUDIT_SERVER_TIMEOUT", "99999999999999999999"),
        ("IAP_AUDIT_LOCK_TIMEOUT", "abc"), ("IAP_AUDIT_SETTLING_SECONDS", "-5"),
        ("IAP_AUDIT_SERVER_TIMEOUT", "nan"), ("IAP_AUDIT_OUTPUT_WINDOW", "999999999"),
        ("IAP_AUDIT_TIME_ZONE", "Mars/Olympus"),
    ])
    func anUnusableSettingInTheEnvironmentIsExitSeventyEightNamingIt(variable: String, value: String) throws {
        let test = try TestWorkspace()
        let input = try test.write("r.jsonl", HostileInputTests.receipt(transaction: "1") + "\n")
        let outcome = try Self.run(
            ["run", "--database-url", test.conninfo, "--receipts", input, "--out", test.directory.path + "/out"],
            environment: [variable: value])
        #expect(outcome.status == 78, "\(variable)=\(value): \(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains(variable), "\(outcome.stderr)")
        #expect(try test.count("SELECT count(*) FROM input_file") == 0, "refused before any work")
    }

    @Test func aTimeOutSettingNamesItsRange() throws {
        let test = try TestWorkspace()
        let outcome = try Self.run(
            ["detect", "--database-url", test.conninfo], environment: ["IAP_AUDIT_LOCK_TIMEOUT": "1e400"])
        #expect(outcome.status == 78)
        #expect(outcome.stderr.contains("IAP_AUDIT_LOCK_TIMEOUT=\"1e400\" is not a number of seconds from 0 to 86400"))
    }

    @Test func reconcileResolvesTheTimeZoneAsRunDoes() throws {
        let test = try TestWorkspace()
        let refused = try Self.run(
            ["reconcile", "--database-url", test.conninfo], environment: ["IAP_AUDIT_TIME_ZONE": "Mars/Olympus"])
        #expect(refused.status == 78, "\(refused.stderr)")
        #expect(refused.stderr.contains("IAP_AUDIT_TIME_ZONE"))
        let sales = try test.write("S_D_80000001_20140302.txt", HostileInputTests.salesReport)
        #expect(try Self.run(["ingest", "sales", "--database-url", test.conninfo, sales]).status == 0)
        let honoured = try Self.run(
            ["reconcile", "--database-url", test.conninfo], environment: ["IAP_AUDIT_TIME_ZONE": "Europe/Berlin"])
        #expect(honoured.status == 0, "\(honoured.stderr)")
        #expect(honoured.stdout.contains("(Europe/Berlin)"), "\(honoured.stdout)")
        #expect(
            try test.connection.query("SELECT DISTINCT time_zone FROM reconciliation_line").string(0, 0)
                == "Europe/Berlin")
    }

    @Test(arguments: ["999999999", "2147483648", "-5", "1.5"])
    func aWindowOutOfRangeIsAUsageErrorBeforeTheQuery(window: String) throws {
        let test = try TestWorkspace()
        let outcome = try Self.run(["report", "flags", "--database-url", test.conninfo, "--param", "window=\(window)"])
        #expect(outcome.status == 64, "window=\(window): \(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains("--param window must be a number of days from 0 to 36525"), "\(outcome.stderr)")
    }

    @Test func aRepeatedParameterIsAUsageError() throws {
        let test = try TestWorkspace()
        let outcome = try Self.run([
            "report", "flags", "--database-url", test.conninfo, "--param", "window=5", "--param", "window=7",
        ])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--param window is given more than once"), "\(outcome.stderr)")
    }

    /// Issue 36, item 7: a raw name where the account key belongs said "No rows" and nothing else.
    @Test func anAccountThatIsNotAKeyIsAUsageErrorNamingHashUsername() throws {
        let test = try TestWorkspace()
        let outcome = try Self.run([
            "report", "account", "--database-url", test.conninfo, "--param", "account=alice@example.com",
        ])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("hash-username"), "\(outcome.stderr)")
        #expect(!outcome.stdout.contains("No rows"))
        let key = try Self.run(["hash-username", "alice@example.com"]).stdout.trimmingCharacters(in: .newlines)
        let accepted = try Self.run(["report", "account", "--database-url", test.conninfo, "--param", "account=\(key)"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    @Test func anOutputDirectoryThatIsAFileIsRefusedBeforeTheRunDoesAnyWork() throws {
        let test = try TestWorkspace()
        let input = try test.write("r.jsonl", HostileInputTests.receipt(transaction: "1") + "\n")
        let file = try test.write("not-a-directory", "x")
        let outcome = try Self.run(["run", "--database-url", test.conninfo, "--receipts", input, "--out", file])
        #expect(outcome.status == 73, "\(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains(file), "\(outcome.stderr)")
        #expect(!outcome.stderr.contains("NSCocoaErrorDomain") && !outcome.stderr.contains("Error Domain"))
        #expect(try test.count("SELECT count(*) FROM input_file") == 0, "nothing was ingested first")

        let report = try Self.run(["report", "quarantine", "--database-url", test.conninfo, "--out", file])
        #expect(report.status == 73, "\(report.stderr)")
        let proc = try Self.run(["report", "quarantine", "--database-url", test.conninfo, "--out", "/proc/self"])
        #expect(proc.status == 73 || proc.status == 74, "\(proc.status) \(proc.stderr)")
        #expect(proc.stderr.contains("/proc/self"), "\(proc.stderr)")
    }

    @Test func aReadOnlyOutputDirectoryIsRefusedWithItsPath() throws {
        // Root writes through any mode bits: a read-only directory cannot be made for root without a mount.
        guard geteuid() != 0 else { return }
        let test = try TestWorkspace()
        let directory = test.directory.appendingPathComponent("read-only").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        let outcome = try Self.run(["report", "quarantine", "--database-url", test.conninfo, "--out", directory])
        #expect(outcome.status == 73, "\(outcome.stderr)")
        #expect(outcome.stderr.contains(directory))
    }
}
