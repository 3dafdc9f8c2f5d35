internal import Dispatch
internal import Foundation
internal import Hummingbird
package import IAPAudit
package import Logging
internal import NIOCore
internal import Synchronization

/// `iap-audit serve`: the triage console (docs/operating.md, "The triage console"). Listens until SIGINT or SIGTERM,
/// then finishes the requests in flight and returns.
package enum ConsoleServer {
    /// Opens the database, listens, prints `console: http://HOST:PORT/` on stderr once it does (with port 0, the
    /// port the system chose), and serves until a signal stops it.
    package static func run(settings: Settings, serve: ServeSettings, logger: Logger) throws {
        let database = ConsoleDatabase(settings: settings, logger: logger)
        try database.open()
        let responder = ConsoleResponder(
            database: database, access: AccessGuard(settings: serve), settings: serve,
            environment: settings.environment,
            logger: logger)
        // Hummingbird's own logger says nothing below warnings: the console logs each request itself, by path only.
        var quiet = logger
        quiet.logLevel = .warning
        let application = Application(
            responder: CallbackResponder { (request: Request, _: BasicRequestContext) in
                await responder.respond(request)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(serve.host, port: serve.port), serverName: "iap-audit"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? serve.port
                let host = serve.host.contains(":") ? "[\(serve.host)]" : serve.host
                FileHandle.standardError.write(
                    Data("console: http://\(host):\(port)/ (stop with Ctrl-C)\n".utf8))
            },
            logger: quiet)
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await application.runService()
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) {
            throw IAPAuditError.configuration("the console could not listen on \(serve.host):\(serve.port): \(error)")
        }
    }
}
