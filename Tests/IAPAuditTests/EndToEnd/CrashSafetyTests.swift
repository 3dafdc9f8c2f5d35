import Foundation
import IAPAudit
import SyntheticData
import TestSupport
import Testing

/// `kill -9` at random moments of a run, ten times, then a clean run: the same final state as one uninterrupted run.
struct CrashSafetyTests {
    @Test func tenKilledRunsThenACleanRunEqualOneUninterruptedRun() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var scenario = ReceiptScenario.benchmark(entries: 50_000)
        scenario.seed = 7
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: data.path, compress: true)
        let receipts = data.appendingPathComponent("receipts").path

        func run(_ test: TestWorkspace) -> [String] {
            ["run", "--database-url", test.conninfo, "--receipts", receipts, "--out", test.directory.path + "/out"]
        }
        let reference = try TestWorkspace()
        #expect(try BinaryUnderTest.run(run(reference)).status == 0)

        let crashed = try TestWorkspace()
        var generator = SeededGenerator(seed: 42)
        var interrupted = 0
        // A killed client's server session lives on until its statement ends, holding the run lock: wait for it,
        // so every kill lands on a run that is working (cron would get 75, "try again later", in that window).
        func waitForKilledSessions() throws {
            for _ in 0..<600 {
                let others = try crashed.count(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                if others == 0 { return }
                usleep(50_000)
            }
        }
        for _ in 0..<10 {
            try waitForKilledSessions()
            let (process, stdout, stderr) = try BinaryUnderTest.start(run(crashed))
            usleep(UInt32(generator.nextInt(in: 200_000...1_500_000)))
            if process.isRunning { interrupted += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        // The test means something only if the kills landed while the ingest was still working.
        #expect(interrupted > 0)
        try waitForKilledSessions()
        let clean = try BinaryUnderTest.run(run(crashed))
        #expect(clean.status == 0, "clean run after the kills: \(clean.stderr.suffix(2000))")
        let expected = try reference.canonicalContents()
        let actual = try crashed.canonicalContents()
        #expect(expected.count == actual.count)
        #expect(expected == actual, "the crashed-then-resumed database differs from the clean one")
    }
}
