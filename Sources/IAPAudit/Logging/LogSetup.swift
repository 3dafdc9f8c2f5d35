internal import Foundation
package import Logging

/// Log output formats on stderr.
package enum LogFormat: String, Sendable, CaseIterable {
    /// `time level message key=value…` lines.
    case plain
    /// One JSON object per line, for log shippers.
    case json
}

/// The least important log level shown: swift-log's levels, spelled so the executable needs no import of its own.
package enum LogLevel: String, Sendable, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }
}

/// The logger a command hands to `Workspace`: the executable passes it on and never logs itself.
package typealias CommandLogger = Logger

/// The executable's one logging set-up: swift-log bootstrapped once, to stderr.
package enum LogSetup {
    /// Bootstraps swift-log once, to stderr, and returns the root logger.
    package static func bootstrap(format: LogFormat, level: LogLevel) -> CommandLogger {
        LoggingBootstrap.once(format: format)
        var logger = Logger(label: "iap-audit")
        logger.logLevel = level.level
        return logger
    }

    /// Records the format the command line asked for, before anything can fail: a failure before `bootstrap` (a
    /// configuration file that does not load) is then reported in that format too.
    package static func prefer(format: LogFormat?) {
        LoggingBootstrap.prefer(format)
    }

    /// The one line (no newline) the executable prints for the error that ended it: `iap-audit: message` in the
    /// plain format, one JSON object with the exit code in the json format.
    package static func failureLine(_ message: String, exitCode: Int32) -> String {
        switch LoggingBootstrap.format {
        case .plain: "iap-audit: \(message)"
        case .json:
            LogLine.json([
                "time": .string(LogTime.now()), "level": .string("error"), "logger": .string("iap-audit"),
                "message": .string(message), "exit_code": .integer(Int64(exitCode)),
            ])
        }
    }

    /// A warning (no newline) the executable prints before a logger exists, in the format chosen so far.
    package static func warningLine(_ message: String) -> String {
        switch LoggingBootstrap.format {
        case .plain: "warning: \(message)"
        case .json:
            LogLine.json([
                "time": .string(LogTime.now()), "level": .string("warning"), "logger": .string("iap-audit"),
                "message": .string(message),
            ])
        }
    }
}

/// Guards the one-time swift-log bootstrap (it may only happen once per process).
enum LoggingBootstrap {
    nonisolated(unsafe) private static var isDone = false
    nonisolated(unsafe) private static var chosenFormat: LogFormat?
    private static let lock = NSLock()

    /// The format of the bootstrapped handlers, else the one the command line asked for, else plain.
    static var format: LogFormat {
        lock.lock()
        defer { lock.unlock() }
        return chosenFormat ?? .plain
    }

    static func prefer(_ format: LogFormat?) {
        lock.lock()
        defer { lock.unlock() }
        if !isDone, let format { chosenFormat = format }
    }

    static func once(format: LogFormat) {
        lock.lock()
        defer { lock.unlock() }
        guard !isDone else { return }
        isDone = true
        chosenFormat = format
        LoggingSystem.bootstrap { label in StderrLogHandler(label: label, format: format) }
    }
}

/// Log lines on stderr, in the format chosen: plain (`2026-11-22T07:15:03Z info ingested receipts file=…`) or one
/// JSON object per line, for log shippers.
struct StderrLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
        let line: String
        switch format {
        case .plain:
            line = LogLine.plain(
                time: LogTime.now(), level: "\(event.level)", message: "\(event.message)", metadata: merged)
        case .json:
            let fixed: [String: LogLine.JSONValue] = [
                "time": .string(LogTime.now()), "level": .string("\(event.level)"),
                "message": .string("\(event.message)"), "logger": .string(label),
            ]
            line = LogLine.json(fixed.merging(merged.mapValues { .string($0) }) { $1 })
        }
        // Above the progress bar, if one is shown, never onto its end.
        StatusLine.writeAbove(line)
    }
}

enum LogTime {
    static func now() -> String {
        Date().formatted(.iso8601)
    }
}
