package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `iap-audit` executable the way a user or cron would.
package struct BinaryUnderTest {
    /// What a finished run left behind.
    package struct Outcome {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        /// The run did not finish within its time limit and was killed: a hang, which a test must report.
        package var timedOut = false
    }

    /// The executable next to the test bundle (SwiftPM builds it into the same folder), or `IAP_AUDIT_BINARY`.
    package static var path: String {
        if let path = ProcessInfo.processInfo.environment["IAP_AUDIT_BINARY"] { return path }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("iap-audit")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        return ".build/debug/iap-audit"
    }

    /// Starts the binary with `arguments`; output goes to files so a killed process cannot block a pipe.
    package static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> (Process, URL, URL)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for variable in [
            "DATABASE_URL", "PGHOST", "PGDATABASE", "PGSERVICE", "IAP_AUDIT_PEPPER", "IAP_AUDIT_PEPPER_FILE",
            "IAP_AUDIT_DATABASE",
        ] {
            merged.removeValue(forKey: variable)
        }
        merged.merge(environment) { $1 }
        process.environment = merged
        let id = UUID().uuidString
        let stdout = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-\(id).out")
        let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-\(id).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, stdout, stderr)
    }

    /// Runs the binary to completion, or kills it after `timeout` seconds (then `timedOut` is set): a test of
    /// something that must not hang fails instead of blocking the suite.
    package static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Double = 600
    ) throws -> Outcome {
        let (process, stdout, stderr) = try start(arguments, environment: environment)
        defer {
            try? FileManager.default.removeItem(at: stdout)
            try? FileManager.default.removeItem(at: stderr)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let timedOut = process.isRunning
        if timedOut {
            process.terminate()
            usleep(500_000)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: stdout, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: stderr, encoding: .utf8)) ?? "", timedOut: timedOut)
    }
}
