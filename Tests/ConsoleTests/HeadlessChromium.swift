import Foundation

/// Chromium from Debian's packages, headless, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
/// commands in on fd 3, answers out on fd 4, each a JSON object ended by a NUL byte): a real browser loading the
/// console's pages, filling its forms and clicking its buttons, with its own `Origin` and cookies.
final class HeadlessChromium {
    static let path = ProcessInfo.processInfo.environment["IAP_AUDIT_CHROMIUM"] ?? "/usr/bin/chromium"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: path) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private let profile: URL
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?

    /// Starts the browser with an empty page; it is killed after `timeout` seconds whatever happens, so a test that
    /// waits on it cannot hang.
    init(timeout: Double = 240) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // fd 3 and 4 are the protocol's; the browser's own output goes nowhere (it would mix with the answers).
        process.arguments = [
            "-c",
            "exec \"$0\" --headless=new --no-sandbox --disable-gpu --no-first-run --remote-debugging-pipe "
                + "--user-data-dir=\"$1\" about:blank 3<&0 4>&1 1>/dev/null 2>/dev/null 0</dev/null",
            Self.path, profile.path,
        ]
        process.standardInput = commands
        process.standardOutput = answers
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { kill(pid, SIGKILL) }
        let target = try call("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target: \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        session = attached["sessionId"] as? String
        _ = try call("Page.enable", [:])
    }

    /// Stops the browser and removes its profile.
    func close() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
    }

    func navigate(_ url: String) throws {
        _ = try call("Page.navigate", ["url": url])
    }

    /// The value of `expression` evaluated in the page (JSON-compatible values only).
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until `condition` (an expression) is true in a loaded page; fails naming it after `seconds`.
    func wait(for condition: String, seconds: Double = 60) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            do {
                if try evaluate("document.readyState === 'complete' && (\(condition))") as? Bool == true { return }
            } catch let failure as Failure where failure.description.contains("Inspected target navigated or closed") {
                // A form just sent navigated the page while it was asked: not loaded yet, so ask again.
            }
            usleep(100_000)
        }
        let text = try evaluate("location.href + '\\n' + document.body.innerText") as? String ?? ""
        throw Failure(description: "waited for \(condition); the page: \(text.prefix(2000))")
    }

    /// Sends one command and returns its result, skipping the events that come between.
    private func call(_ method: String, _ params: [String: Any]) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if let session, !method.hasPrefix("Target.") { message["sessionId"] = session }
        var bytes = try JSONSerialization.data(withJSONObject: message)
        bytes.append(0)
        try commands.fileHandleForWriting.write(contentsOf: bytes)
        while true {
            let reply = try read()
            guard reply["id"] as? Int == nextID else { continue }
            if let error = reply["error"] { throw Failure(description: "\(method): \(error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    private func read() throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                return try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] ?? [:]
            }
            let chunk = answers.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "Chromium closed its pipe (crashed or timed out)") }
            buffer += chunk
        }
    }
}
