import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pipeline_run` says what really happened to every command: its exit code, a stop by a signal, a kill.
struct RunRecordTests {
    func runs(_ test: TestWorkspace) throws -> [[String?]] {
        try test.connection.query("SELECT command, outcome, exit_code FROM pipeline_run ORDER BY id").rows
    }

    @Test func aCommandThatFailsIsRecordedWithTheExitCodeItReallyHad() throws {
        let test = try TestWorkspace()
        let folder = try test.write("spool/a.jsonl", #"{"response": {"status": 21002}}"# + "\n")
        let missing = try BinaryUnderTest.run(
            ["ingest", "receipts", "--database-url", test.conninfo, folder, folder + ".typo"])
        #expect(missing.status == 66)
        #expect(try runs(test).last == ["ingest receipts", "failed", "66"])
    }

    static func generatedSpool(_ test: TestWorkspace, entries: Int, seed: UInt64) throws -> String {
        var scenario = ReceiptScenario.benchmark(entries: entries)
        scenario.seed = seed
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: test.directory.path, compress: true)
        return test.directory.appendingPathComponent("receipts").path
    }

    /// Waits until the run has stored its first file (it is then inside the work, holding the lock).
    static func waitForFirstFile(_ test: TestWorkspace) throws {
        for _ in 0..<600 {
            if try test.count("SELECT count(*) FROM input_file") > 0 { return }
            usleep(50_000)
        }
    }

    @Test func aKilledRunIsMarkedAbandonedAndDoesNotBlockTheNextOne() throws {
        let test = try TestWorkspace()
        let spool = try Self.generatedSpool(test, entries: 60_000, seed: 11)
        let arguments = ["ingest", "receipts", "--database-url", test.conninfo, spool]
        let (process, stdout, stderr) = try BinaryUnderTest.start(arguments)
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        try Self.waitForFirstFile(test)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // At once: the killed client's server session may still hold the lock; the next command ends it.
        let next = try BinaryUnderTest.run(arguments, timeout: 300)
        #expect(next.status == 0, "\(next.stderr.suffix(600))")
        let recorded = try runs(test)
        #expect(recorded.first == ["ingest receipts", "abandoned", nil])
        #expect(recorded.last == ["ingest receipts", "succeeded", "0"])
    }

    @Test func ingestStopsBetweenFilesOnSIGTERMAndIsRecordedAsInterrupted() throws {
        let test = try TestWorkspace()
        let spool = try Self.generatedSpool(test, entries: 60_000, seed: 12)
        let (process, stdout, stderr) = try BinaryUnderTest.start(
            ["ingest", "receipts", "--database-url", test.conninfo, spool])
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        try Self.waitForFirstFile(test)
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(try runs(test).last == ["ingest receipts", "interrupted", "143"])
        // Every file is whole: stored with all its records, or not at all.
        #expect(
            try test.count(
                "SELECT count(*) FROM input_file f WHERE records_stored <> "
                    + "(SELECT count(*) FROM receipt r WHERE r.file_id = f.id)") == 0)
    }

    @Test func twoReconcilesAtOnceNeverFailWithSeventy() throws {
        let test = try TestWorkspace()
        try ReconciliationFixture.load(into: test)
        let arguments = ["reconcile", "--database-url", test.conninfo]
        let starts = try (0..<2).map { _ in try BinaryUnderTest.start(arguments) }
        var statuses: [Int32] = []
        for (process, stdout, stderr) in starts {
            process.waitUntilExit()
            statuses.append(process.terminationStatus)
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        #expect(statuses.allSatisfy { $0 == 0 || $0 == 75 }, "\(statuses)")
        #expect(statuses.contains(0))
    }
}
