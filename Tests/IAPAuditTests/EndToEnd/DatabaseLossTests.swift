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
        // A server of its own: stopping the shared test server would pull the floor from under other tests.
        let root = ProcessInfo.processInfo.environment["IAP_AUDIT_TEST_TMPDIR"] ?? "/tmp"
        let home = "\(root)/iap-audit-loss-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(
            atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let server = EmbeddedServer(home: home, installation: try PostgresInstallation.find())
        defer {
            try? server.destroy()
            try? FileManager.default.removeItem(atPath: home)
        }
        let conninfo = try server.start().connectionString(database: "postgres")

        let data = URL(fileURLWithPath: home).appendingPathComponent("data")
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
        let watcher = try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        for _ in 0..<600 {
            let files = try? watcher.query("SELECT count(*) FROM input_file").int(0, 0)
            if (files ?? 0) > 0 { break }
            usleep(50_000)
        }
        try server.stop(mode: .immediate)
        let stoppedAt = Date()
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        #expect(Date().timeIntervalSince(stoppedAt) < 30, "the run must fail fast, not hang")
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(message.contains("database unavailable"))

        _ = try server.start()
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
