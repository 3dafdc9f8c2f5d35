import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Postgres
import TestSupport

/// `iap-audit serve` started through the binary on an ephemeral port, over a fresh database with two flags (one
/// not-authentic receipt each from carol and dave: the invalid-receipts rule flags both accounts). Its stderr is the
/// console's log; requests go through AsyncHTTPClient, redirects not followed (a 303 is what a form answers).
///
/// Everything here blocks its thread (waits on NIO's futures, not `await`): in the whole suite, tests that run the
/// binary for minutes hold the cooperative threads, and an awaiting test would wait for one to be free to resume.
final class ConsoleFixture: @unchecked Sendable {
    static let receipts = """
        {"application_username": "carol@example.com", "recorded_at": "2026-03-01T10:00:00Z", \
        "response": {"status": 21003}}
        {"application_username": "dave@example.com", "recorded_at": "2026-03-01T11:00:00Z", \
        "response": {"status": 21003}}

        """

    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: String
    }

    let files: TemporaryDirectory
    let conninfo: String
    private(set) var process: Process?
    private var stderr: URL?
    private(set) var base = ""
    /// What `Host` names this console (and so what a same-origin `Origin` says).
    private(set) var authority = ""
    let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// A database with the two flags (ingested and detected through the binary).
    init() throws {
        files = try TemporaryDirectory()
        conninfo = try TestPostgres.freshDatabase(prefix: "console")
        let path = try files.write(Array(Self.receipts.utf8), to: "r.jsonl")
        for arguments in [["ingest", "receipts", path], ["detect"]] {
            let outcome = try BinaryUnderTest.run(arguments + ["--database-url", conninfo], timeout: 300)
            guard outcome.status == 0 else { throw FixtureError("\(arguments): \(outcome.stderr)") }
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Starts `serve --port 0` (and `arguments`) and waits for the line naming its address.
    func start(_ arguments: [String] = [], environment: [String: String] = [:]) throws {
        let (process, _, stderr) = try BinaryUnderTest.start(
            ["serve", "--port", "0", "--as", "erin", "--database-url", conninfo] + arguments,
            environment: environment)
        self.process = process
        self.stderr = stderr
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let log = self.log
            if let range = log.range(of: "console: http://") {
                let address = log[range.upperBound...].prefix { $0 != "/" }
                authority = String(address)
                base = "http://" + authority
                return
            }
            guard process.isRunning else { throw FixtureError("serve exited: \(log)") }
            usleep(50_000)
        }
        throw FixtureError("serve did not start: \(self.log)")
    }

    /// What the console wrote to stderr so far.
    var log: String { stderr.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? "" }

    /// Stops the console (SIGTERM, as Ctrl-C would) and returns its exit status and whole log.
    @discardableResult
    func stop() throws -> (status: Int32, log: String) {
        try client.syncShutdown()
        guard let process else { return (0, "") }
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let log = self.log
        if let stderr { try? FileManager.default.removeItem(at: stderr) }
        return (process.terminationStatus, log)
    }

    /// Runs `body` with the console started, and stops it however `body` ends.
    func running(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            try? stop()
            throw error
        }
    }

    func get(_ path: String, headers: [(String, String)] = []) throws -> Reply {
        var request = try HTTPClient.Request(url: base + path)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        return try send(request)
    }

    /// Posts `form` as a browser on the console's own page would: with its `Origin` (or `origin`, nil for none).
    func post(
        _ path: String, form: [(String, String)], origin: String? = "", headers: [(String, String)] = []
    ) throws -> Reply {
        var request = try HTTPClient.Request(url: base + path, method: .POST)
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if let origin { request.headers.add(name: "Origin", value: origin.isEmpty ? base : origin) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let allowed = CharacterSet.alphanumerics.union(["-", "_", "."])
        let body = form.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        request.body = .string(body)
        return try send(request)
    }

    private func send(_ request: HTTPClient.Request) throws -> Reply {
        let response = try client.execute(request: request, deadline: .now() + .seconds(60)).wait()
        return Reply(
            status: Int(response.status.code), headers: response.headers,
            body: response.body.map { String(buffer: $0) } ?? "")
    }

    /// The flags' ids, carol's first.
    func flagIDs() throws -> [Int64] {
        let carol = try hash("carol@example.com")
        return try connection().query(
            "SELECT id FROM flag WHERE rule = 'invalid-receipts' ORDER BY subject_key = $1 DESC, id", [carol]
        ).rows.map { Int64($0[0] ?? "") ?? -1 }
    }

    /// The stored key of a username, from the binary's `hash-username`.
    func hash(_ username: String) throws -> String {
        let outcome = try BinaryUnderTest.run(["hash-username", username], timeout: 60)
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The flag's status and its log's `action:reason by actor` lines, oldest first.
    func trail(_ id: Int64) throws -> (status: String, decisions: [String]) {
        let connection = try connection()
        let status = try connection.query("SELECT status FROM flag WHERE id = $1", [id]).requireString(0, 0)
        let decisions = try connection.query(
            "SELECT action || coalesce(':' || reason, '') || ' by ' || actor FROM flag_decision WHERE flag_id = $1 "
                + "ORDER BY id", [id]
        ).rows.map { $0[0] ?? "" }
        return (status, decisions)
    }

    func connection() throws -> Connection { try Connection(conninfo: conninfo, logger: TestPostgres.logger) }
}
