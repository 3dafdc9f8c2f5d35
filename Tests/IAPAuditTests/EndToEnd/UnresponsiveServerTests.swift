import EmbeddedPostgres
import Foundation
import IAPAudit
import Postgres
import SyntheticData
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server that stops answering, or a session that holds a lock for ever: every wait has a bound, and the command
/// says what it waited for.
struct UnresponsiveServerTests {
    /// The processes of the cluster whose postmaster is `postmaster`: it and its children.
    static func clusterProcesses(postmaster: Int32) -> [Int32] {
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            Int32(entry).flatMap { pid -> Int32? in
                guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return nil }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 2 && Int32(fields[1]) == postmaster ? pid : nil
            }
        }
        return [postmaster] + children
    }

    @Test func aServerThatStopsAnsweringFailsTheRunWithSixtyNineWithinTheBound() throws {
        let server = try PrivateTestServer()
        var stopped: [Int32] = []
        defer {
            for pid in stopped { kill(pid, SIGCONT) }
            server.destroy()
        }
        let conninfo = server.conninfo
        let data = URL(fileURLWithPath: server.home).appendingPathComponent("data")
        var scenario = ReceiptScenario.benchmark(entries: 60_000)
        scenario.seed = 6
        _ = try ReceiptDataGenerator(scenario: scenario).write(to: data.path, compress: true)
        let (process, stdout, stderr) = try BinaryUnderTest.start(
            [
                "ingest", "receipts", "--database-url", conninfo, data.appendingPathComponent("receipts").path,
            ], environment: ["IAP_AUDIT_SERVER_TIMEOUT": "3"])
        defer {
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        try waitForAStoredFile(conninfo: conninfo)
        // SIGSTOP: the server neither answers nor closes the connection, as a hung host would.
        let postmaster = try #require(
            Int32(
                try String(contentsOfFile: server.server.dataDirectory + "/postmaster.pid", encoding: .utf8)
                    .split(separator: "\n").first ?? ""))
        stopped = Self.clusterProcesses(postmaster: postmaster)
        for pid in stopped { kill(pid, SIGSTOP) }
        let stoppedAt = Date()
        while process.isRunning && Date().timeIntervalSince(stoppedAt) < 60 { usleep(100_000) }
        #expect(!process.isRunning, "the command must give up on a server that does not answer")
        for pid in stopped { kill(pid, SIGCONT) }
        stopped = []
        process.waitUntilExit()
        #expect(process.terminationStatus == 69)
        let message = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(message.contains("did not answer for 3 s"), "\(message.suffix(400))")
    }

    @Test func aLockHeldTooLongFailsWithSeventyFiveAndNamesTheSession() throws {
        let test = try TestWorkspace()
        let holder = try Connection(conninfo: test.conninfo, applicationName: "alice-psql", logger: TestPostgres.logger)
        try holder.execute(script: "BEGIN; LOCK TABLE input_file IN ACCESS EXCLUSIVE MODE")
        defer { _ = try? holder.execute(script: "ROLLBACK") }
        let path = try test.write("r.jsonl", #"{"response": {"status": 21002}}"# + "\n")
        let result = try BinaryUnderTest.run(
            ["ingest", "receipts", "--database-url", test.conninfo, path], environment: ["IAP_AUDIT_LOCK_TIMEOUT": "1"],
            timeout: 120)
        #expect(!result.timedOut)
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("waited 1 s for a lock held by session"), "\(result.stderr)")
        #expect(result.stderr.contains("alice-psql"), "\(result.stderr)")
        let recorded = try test.connection.query(
            "SELECT outcome, exit_code FROM pipeline_run WHERE command = 'ingest receipts'")
        #expect(recorded.string(0, 0) == "failed" && recorded.string(0, 1) == "75")
    }
}
