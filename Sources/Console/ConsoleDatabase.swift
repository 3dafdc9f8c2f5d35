internal import IAPAudit
internal import Logging
internal import NIOPosix
internal import Synchronization

/// The console's one connection (a `TriageDesk`, which never migrates and works as the analyst role), used by one
/// request at a time, on NIO's thread pool: libpq blocks, and neither the event loops nor Swift's cooperative
/// threads may wait on it. A failure other than a refused decision drops the connection; the next request opens a
/// new one, so a restarted database server does not leave the console broken.
final class ConsoleDatabase: Sendable {
    private let settings: Settings
    private let logger: Logger
    private let desk = Mutex<TriageDesk?>(nil)

    init(settings: Settings, logger: Logger) {
        self.settings = settings
        self.logger = logger
    }

    /// Opens the connection now, so a console that cannot reach its database says so before it listens.
    func open() throws {
        try desk.withLock { desk in
            if desk == nil { desk = try TriageDesk(settings: settings, logger: logger) }
        }
    }

    /// Runs `body` with the desk on a thread of the pool.
    func run<T: Sendable>(_ body: @escaping @Sendable (TriageDesk) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { [settings, logger] in
            try self.desk.withLock { desk in
                let current = try desk ?? TriageDesk(settings: settings, logger: logger)
                desk = current
                do {
                    return try body(current)
                } catch let error as IAPAuditError {
                    if case .usage = error {} else { desk = nil }
                    throw error
                } catch {
                    desk = nil
                    throw error
                }
            }
        }
    }
}
