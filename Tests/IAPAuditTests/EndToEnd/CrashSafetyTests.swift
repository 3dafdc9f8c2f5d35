import Foundation
import IAPAudit
import SyntheticData
import Testing

/// `kill -9` in the middle of a large ingest, then a clean run: the same final state as one uninterrupted run.
struct CrashSafetyTests {
    @Test func killedIngestsThenACleanRunEqualOneUninterruptedRun() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        var scenario = ReceiptScenario.benchmark(entries: 80_000)
        scenario.seed = 7
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: data.path, compress: true)
        let receipts = data.appendingPathComponent("receipts").path

        let reference = try TestWorkspace()
        #expect(
            try BinaryUnderTest.run(["ingest", "receipts", "--database-url", reference.conninfo, receipts]).status == 0)

        let crashed = try TestWorkspace()
        var generator = SeededGenerator(seed: 42)
        var interrupted = 0
        for _ in 0..<3 {
            let (process, stdout, stderr) = try BinaryUnderTest.start(
                ["ingest", "receipts", "--database-url", crashed.conninfo, receipts])
            usleep(UInt32(generator.nextInt(in: 300_000...2_000_000)))
            if process.isRunning { interrupted += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        // The test means something only if the kills landed while the ingest was still working.
        #expect(interrupted > 0)
        #expect(
            try BinaryUnderTest.run(["ingest", "receipts", "--database-url", crashed.conninfo, receipts]).status == 0)
        let expected = try reference.canonicalContents()
        let actual = try crashed.canonicalContents()
        #expect(expected.count == actual.count)
        #expect(expected == actual, "the crashed-then-resumed database differs from the clean one")
    }
}
