internal import CLibPQ
internal import Foundation
internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#endif

/// Bounds how long one libpq call may wait for the server.
///
/// A server that stops answering (SIGSTOP, a hung host, a network that drops packets without a reset) leaves a
/// blocking libpq call waiting forever: TCP keepalives do not help (the kernel answers them for a stopped process)
/// and a Unix socket has none. One monitor thread watches every call that waits; when a call has waited longer
/// than its connection's `responseTimeout`, it shuts the connection's socket down, the call returns with a broken
/// connection, and the command fails as "database unavailable" instead of hanging a cron run for days.
final class ResponseWatchdog: Sendable {
    static let shared = ResponseWatchdog()

    private struct Watch {
        var deadline: UInt64
        var hasFired = false
    }

    private let watches = Mutex<[Int32: Watch]>([:])
    private let isRunning = Atomic<Bool>(false)

    /// Starts watching the call about to wait on `socket`.
    func arm(socket: Int32, seconds: Double) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        watches.withLock { $0[socket] = Watch(deadline: deadline) }
        if !isRunning.exchange(true, ordering: .acquiringAndReleasing) { startMonitor() }
    }

    /// Stops watching `socket`; true when the watchdog had to cut it off.
    func disarm(socket: Int32) -> Bool {
        watches.withLock { $0.removeValue(forKey: socket)?.hasFired ?? false }
    }

    private func startMonitor() {
        let thread = Thread { [self] in
            while true {
                usleep(200_000)
                let now = DispatchTime.now().uptimeNanoseconds
                watches.withLock { watches in
                    for (socket, watch) in watches where !watch.hasFired && now > watch.deadline {
                        shutdown(socket, Int32(SHUT_RDWR))
                        watches[socket]?.hasFired = true
                    }
                }
            }
        }
        thread.name = "iap-audit postgres watchdog"
        thread.start()
    }
}

extension Connection {
    /// Runs a libpq call that waits for the server under the watchdog, when a `responseTimeout` is set; throws a
    /// connection error that says what happened when the watchdog had to cut the connection.
    func waiting<Result>(_ context: String?, _ call: () -> Result) throws(PostgresError) -> Result {
        guard let seconds = responseTimeout else { return call() }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return call() }
        ResponseWatchdog.shared.arm(socket: socket, seconds: seconds)
        let result = call()
        if ResponseWatchdog.shared.disarm(socket: socket) {
            throw PostgresError(
                kind: .connection,
                message: "the server did not answer for \(Int(seconds)) s; gave up on it (IAP_AUDIT_SERVER_TIMEOUT)",
                context: context)
        }
        return result
    }
}
