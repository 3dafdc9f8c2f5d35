import Foundation
import IAPAudit
import SyntheticData
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
        for _ in 0..<10 {
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
        #expect(try BinaryUnderTest.run(run(crashed)).status == 0)
        let expected = try reference.canonicalContents()
        let actual = try crashed.canonicalContents()
        #expect(expected.count == actual.count)
        #expect(expected == actual, "the crashed-then-resumed database differs from the clean one")
    }
}
