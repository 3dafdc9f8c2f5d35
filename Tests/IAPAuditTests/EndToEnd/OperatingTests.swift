import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

/// What an operator relies on: dry runs keep nothing, metrics are written, signals stop cleanly.
struct OperatingTests {
    @Test func dryRunReadsEverythingAndKeepsNothing() throws {
        let test = try TestWorkspace()
        let manifest = try ReceiptDataGenerator(scenario: .small).write(to: test.directory.path, compress: true)
        let out = test.directory.appendingPathComponent("out").path
        let result = try BinaryUnderTest.run([
            "run", "--dry-run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("receipts").path, "--out", out,
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(manifest.badRecords) quarantined"))
        #expect(result.stdout.contains("nothing kept"))
        #expect(try test.count("SELECT count(*) FROM receipt") == 0)
        #expect(try test.count("SELECT count(*) FROM input_file") == 0)
        #expect(try test.count("SELECT count(*) FROM pipeline_run") == 0)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func metricsFileIsWrittenInPrometheusFormat() throws {
        let test = try TestWorkspace()
        _ = try ReceiptDataGenerator(scenario: .small).write(to: test.directory.path, compress: true)
        let metrics = test.directory.appendingPathComponent("iap_audit.prom").path
        let result = try BinaryUnderTest.run([
            "run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("receipts").path,
            "--out", test.directory.appendingPathComponent("out").path, "--metrics-file", metrics,
        ])
        #expect(result.status == 0)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("iap_audit_last_run_exit_code 0"))
        #expect(text.contains("# TYPE iap_audit_records gauge"))
        #expect(text.contains(#"iap_audit_quarantined_records{kind="receipts",reason="invalid-json"}"#))
        let failed = try BinaryUnderTest.run([
            "run", "--database-url", "host=/nonexistent port=5432 dbname=x connect_timeout=2", "--metrics-file",
            metrics,
        ])
        #expect(failed.status == 69)
        #expect(try String(contentsOfFile: metrics, encoding: .utf8).contains("iap_audit_last_run_exit_code 69"))
    }

    @Test func sigtermFinishesTheFileInProgressAndRecordsTheRunAsInterrupted() throws {
        let test = try TestWorkspace()
        let (process, arguments, outputs) = try startRunUntilAFileIsStored(in: test, entries: 60_000, seed: 9)
        defer { outputs.forEach { try? FileManager.default.removeItem(at: $0) } }
        // The first file is in: ask to stop.
        let wasRunning = process.isRunning
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(wasRunning)
        #expect(process.terminationStatus == 143)
        let run = try test.connection.query("SELECT outcome, exit_code FROM pipeline_run ORDER BY id DESC LIMIT 1")
        #expect(run.string(0, 0) == "interrupted")
        #expect(run.int(0, 1) == 143)
        // Files are all-or-nothing: every stored file has all its counted records.
        #expect(
            try test.count(
                "SELECT count(*) FROM input_file f WHERE records_stored <> "
                    + "(SELECT count(*) FROM receipt r WHERE r.file_id = f.id)") == 0)
        #expect(try BinaryUnderTest.run(arguments).status == 0)
        #expect(try test.count("SELECT count(*) FROM pipeline_run WHERE outcome = 'succeeded'") == 1)
    }

    @Test func twoRunsAtOnceOneWorksTheOtherExitsSeventyFiveAtOnce() throws {
        let test = try TestWorkspace()
        let (first, arguments, outputs) = try startRunUntilAFileIsStored(in: test, entries: 40_000, seed: 3)
        defer { outputs.forEach { try? FileManager.default.removeItem(at: $0) } }
        // The first run holds the lock now that it has stored a file.
        let firstWasRunning = first.isRunning
        let started = Date()
        let second = try BinaryUnderTest.run(arguments)
        let secondSeconds = Date().timeIntervalSince(started)
        first.waitUntilExit()
        #expect(firstWasRunning)
        #expect(second.status == 75)
        #expect(second.stderr.contains("another iap-audit run holds the lock"))
        #expect(secondSeconds < 10, "the second run must give up at once, not wait")
        #expect(first.terminationStatus == 0)
        #expect(try test.count("SELECT count(*) FROM pipeline_run WHERE outcome = 'succeeded'") == 1)
    }

    /// Starts `iap-audit run` over a generated receipt set of about `entries` transaction entries, and returns once
    /// the run has stored its first file: the process, its arguments (to run it again), and its output files.
    private func startRunUntilAFileIsStored(
        in test: TestWorkspace, entries: Int, seed: UInt64
    ) throws -> (process: Process, arguments: [String], outputs: [URL]) {
        var scenario = ReceiptScenario.benchmark(entries: entries)
        scenario.seed = seed
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: test.directory.path, compress: true)
        let arguments = [
            "run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("receipts").path,
            "--out", test.directory.appendingPathComponent("out").path,
        ]
        let (process, stdout, stderr) = try BinaryUnderTest.start(arguments)
        for _ in 0..<600 where try test.count("SELECT count(*) FROM input_file") == 0 { usleep(50_000) }
        return (process, arguments, [stdout, stderr])
    }
}
