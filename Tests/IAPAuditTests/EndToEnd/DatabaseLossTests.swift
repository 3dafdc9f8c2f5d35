import EmbeddedPostgres
import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

/// PostgreSQL stopped in the middle of a run: exit 69 at once with a clear message; the next run completes.
struct DatabaseLossTests {
    @Test func aRunWhoseDatabaseStopsExitsSixtyNineAndTheNextRunCompletes() throws {
        let server = try PrivateTestServer()
        defer { server.destroy() }
        let conninfo = server.conninfo

        let data = URL(fileURLWithPath: server.home).appendingPathComponent("data")
        var scenario = ReceiptScenario.benchmark(entries: 60_000)
        scenario.seed = 5
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: data.path, compress: true)
        let arguments = [
            "run", "--database-url", conninfo, "--receipts", data.appendingPathComponent("receipts").path,
            "--out", data.appendingPathComponent("out").path,
        ]
        let (process, stdout, stderr) = try BinaryUnderTest.start(arguments)
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        try waitForAStoredFile(conninfo: conninfo)
        try server.stop()
        let stoppedAt = Date()
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        #expect(Date().timeIntervalSince(stoppedAt) < 30, "the run must fail fast, not hang")
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(message.contains("database unavailable"))

        _ = try server.server.start()
        #expect(try BinaryUnderTest.run(arguments).status == 0)
        let check = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        #expect(
            try check.query(
                "SELECT count(*) FROM input_file f WHERE records_stored <> "
                    + "(SELECT count(*) FROM receipt r WHERE r.file_id = f.id)"
            ).int(0, 0) == 0)
        #expect(try check.query("SELECT count(*) FROM pipeline_run WHERE outcome = 'succeeded'").int(0, 0) == 1)
    }
}
