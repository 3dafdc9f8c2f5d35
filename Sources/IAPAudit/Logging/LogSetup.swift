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
}

/// Guards the one-time swift-log bootstrap (it may only happen once per process).
enum LoggingBootstrap {
    nonisolated(unsafe) private static var isDone = false
    private static let lock = NSLock()

    static func once(format: LogFormat) {
        lock.lock()
        defer { lock.unlock() }
        guard !isDone else { return }
        isDone = true
        switch format {
        case .plain: LoggingSystem.bootstrap { label in PlainLogHandler(label: label) }
        case .json: LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
    }
}

/// `2026-11-22T07:15:03Z info ingested receipts file=… records=…` on stderr.
struct PlainLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "\(LogTime.now()) \(event.level) \(event.message)"
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            let value = "\(merged[key] ?? "")"
            line += " \(key)=" + (value.contains(" ") ? "\"\(value)\"" : value)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// One JSON object per line on stderr, for log shippers.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var object: [String: String] = [
            "time": LogTime.now(), "level": "\(event.level)", "message": "\(event.message)", "logger": label,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = "\(value)"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(object) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}

enum LogTime {
    static func now() -> String {
        Date().formatted(.iso8601)
    }
}
