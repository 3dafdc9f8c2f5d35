internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import NIOPosix
internal import Synchronization

/// A stand-in for Apple's App Store Connect API (sales and finance reports), on loopback only, behaving as Apple
/// documents: every token checked (`TokenCheck`), reports served as gzip bytes under the filters Apple defines, 404
/// "no sales" for a published day without a report and 404 "not available yet" after the last published day, and
/// the misbehaviours of `StandInFault` on demand.
package final class AppleStandIn: Sendable {
    struct State {
        var reports: [String: [UInt8]] = [:]
        var publishedThrough = "9999-12-31"
        var faults: [StandInFault] = []
        var requests: [String] = []
        var latency: Double = 0
        var notifications: [SentNotification] = []
        var cursors: [String: Cursor] = [:]
        var repeatNextPage = false
        var expireNextToken = false
        var history: [HistoryEntry] = []
    }

    let connect: TokenCheck?
    let server: TokenCheck?
    let vendorNumber: String
    let state = Mutex(State())
    private let channel = Mutex<(any Channel)?>(nil)

    /// A stand-in that knows the App Store Connect key `connectKey` and the vendor `vendorNumber`.
    package init(
        connectKey: TokenCheck.Key?, vendorNumber: String = "80012345", serverKey: TokenCheck.Key? = nil,
        bundleIDs: Set<String> = []
    ) {
        connect = connectKey.map { TokenCheck(key: $0, maxLifetime: 20 * 60, bundleIDs: nil) }
        server = serverKey.map { TokenCheck(key: $0, maxLifetime: 60 * 60, bundleIDs: bundleIDs) }
        self.vendorNumber = vendorNumber
    }

    /// Serves `bytes` (gzip, as Apple sends them) for the report Apple names `fileName`.
    package func addReport(_ fileName: String, bytes: [UInt8]) { state.withLock { $0.reports[fileName] = bytes } }

    /// Reports for periods ending after `day` (`YYYY-MM-DD`) are "not available yet"; before, a missing report is a
    /// day without sales.
    package func publish(through day: String) { state.withLock { $0.publishedThrough = day } }

    /// The next `times` requests act out `fault`.
    package func inject(_ fault: StandInFault, times: Int = 1) {
        state.withLock { $0.faults += Array(repeating: fault, count: times) }
    }

    /// Seconds every answer waits, like Apple's own latency.
    package func setLatency(_ seconds: Double) { state.withLock { $0.latency = seconds } }

    /// Every request so far, as `path?query`, in arrival order.
    package var requests: [String] { state.withLock { $0.requests } }

    /// Starts listening on 127.0.0.1 (a free port); returns the base URL.
    package func start() throws -> String {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(StandInHandler(standIn: self))
                }
            }
        let bound = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
        channel.withLock { $0 = bound }
        return "http://127.0.0.1:\(bound.localAddress?.port ?? 0)"
    }

    /// Stops listening.
    package func stop() {
        let bound = channel.withLock { $0 }
        try? bound?.close().wait()
    }

    /// The answer to one request, and how long to wait before giving it.
    /// The next notification-history page repeats the one before it (with a token that goes on from there).
    package func repeatNextPage() { state.withLock { $0.repeatNextPage = true } }

    func respond(method: String, uri: String, authorization: String?, body: [UInt8] = []) -> (StandInResponse, Double) {
        let (fault, latency) = state.withLock { state -> (StandInFault?, Double) in
            state.requests.append(uri)
            return (state.faults.isEmpty ? nil : state.faults.removeFirst(), state.latency)
        }
        if let fault { return (Self.acting(fault), latency) }
        guard let components = URLComponents(string: uri) else {
            return (
                .connectError(405, code: "METHOD_NOT_ALLOWED", title: "Method not allowed", detail: method), latency
            )
        }
        var filters: [String: String] = [:]
        for item in components.queryItems ?? [] { filters[item.name] = item.value ?? "" }
        switch (method, components.path) {
        case ("POST", "/inApps/v1/notifications/history"):
            guard let server, server.problem(with: authorization) == nil,
                let bundleID = TokenCheck.bundleID(authorization)
            else { return (StandInResponse(status: 401), latency) }
            let token = components.queryItems?.first { $0.name == "paginationToken" }?.value
            return (notificationHistory(bundleID: bundleID, token: token, body: body), latency)
        case ("GET", let path)
        where path.hasPrefix("/inApps/v2/history/") || path.hasPrefix("/inApps/v2/refund/lookup/"):
            guard let server, server.problem(with: authorization) == nil,
                let bundleID = TokenCheck.bundleID(authorization)
            else { return (StandInResponse(status: 401), latency) }
            let revision = components.queryItems?.first { $0.name == "revision" }?.value
            let id = String(path.split(separator: "/").last ?? "")
            return (
                history(
                    refunds: path.hasPrefix("/inApps/v2/refund/"), transactionID: id, bundleID: bundleID,
                    revision: revision), latency
            )
        case ("GET", "/v1/salesReports"), ("GET", "/v1/financeReports"):
            guard let connect, connect.problem(with: authorization) == nil else { return (.unauthorized, latency) }
            return (reportResponse(path: components.path, filters: filters), latency)
        default:
            return (
                .connectError(
                    404, code: "NOT_FOUND", title: "The specified resource does not exist",
                    detail: "The path provided does not match a defined resource type."), latency
            )
        }
    }

    private static func acting(_ fault: StandInFault) -> StandInResponse {
        switch fault {
        case .tooManyRequests(let retryAfter):
            var response = StandInResponse.connectError(
                429, code: "RATE_LIMIT_EXCEEDED", title: "The request rate limit has been reached.",
                detail:
                    "We've received too many requests for this API. Please wait and try again or slow down your request rate."
            )
            response.headers.append(("X-Rate-Limit", "user-hour-lim:3500;user-hour-rem:0;"))
            if let retryAfter { response.headers.append(("Retry-After", "\(retryAfter)")) }
            return response
        case .serverError:
            return .connectError(500, code: "UNEXPECTED_ERROR", title: "An unexpected error occurred.", detail: "")
        case .neverEnding, .cutBody:
            return StandInResponse(status: 200, headers: [("Content-Type", "application/a-gzip")], fault: fault)
        }
    }
}
