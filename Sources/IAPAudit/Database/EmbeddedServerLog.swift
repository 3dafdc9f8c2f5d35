internal import EmbeddedPostgres
internal import Foundation
internal import Synchronization

/// The embedded server's log as far as this process is concerned: what it wrote since this process started it or
/// connected to it. When the server's own disk fills up (its write-ahead log, not a table), PostgreSQL stops every
/// session with a PANIC and the client sees only "server closed the connection unexpectedly"; the log says why.
enum EmbeddedServerLog {
    private struct Watched {
        var logFile: String
        var dataDirectory: String
        var offset: UInt64
    }

    private static let watched = Mutex<Watched?>(nil)

    /// Remembers `server`'s log from its present end on.
    static func watch(_ server: EmbeddedServer) {
        let size =
            (try? FileManager.default.attributesOfItem(atPath: server.logFile)[.size] as? NSNumber)?
            .uint64Value ?? 0
        watched.withLock { $0 = Watched(logFile: server.logFile, dataDirectory: server.dataDirectory, offset: size) }
    }

    /// "The database's disk is full at PATH" with the server's own line, when the log written since `watch` says so.
    static func diskFull() -> String? {
        guard let watched = watched.withLock({ $0 }), let file = FileHandle(forReadingAtPath: watched.logFile) else {
            return nil
        }
        defer { try? file.close() }
        guard let end = try? file.seekToEnd(), end > watched.offset else { return nil }
        // The last 256 KiB at most: a PANIC is among the server's last words.
        try? file.seek(toOffset: max(watched.offset, end > 262_144 ? end - 262_144 : 0))
        guard let data = try? file.readToEnd() else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        guard let line = lines.last(where: { $0.contains("No space left on device") }) else { return nil }
        let shown = line.count > 300 ? line.prefix(300) + "…" : line
        return "the database's disk is full at \(watched.dataDirectory) (the server said: \(shown))"
    }
}
