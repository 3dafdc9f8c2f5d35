internal import AsyncHTTPClient
internal import Foundation
internal import NIOCore
internal import NIOHTTP1
internal import Synchronization

/// Requests to one of Apple's APIs: a fresh token on each, at most `concurrency` in flight, every attempt within
/// a timeout, 429 and 5xx (and broken connections) retried with backoff and jitter honouring `Retry-After`, within
/// `RetryPolicy.retrySeconds`. 401 and 403 end the request at once with a message naming the key.
public final class AppleHTTPClient: Sendable {
    /// The largest body accepted (a year's daily reports are far below it).
    static let maxBodyBytes = 512 * 1024 * 1024

    private let baseURL: String
    private let service: AppleService
    private let tokens: TokenIssuer
    private let policy: RetryPolicy
    private let client: HTTPClient
    private let limit: ConcurrencyLimit
    private let counters = Mutex(RequestStatistics())
    /// True once the process was asked to stop (SIGINT, SIGTERM): no new attempt starts and a backoff ends early.
    private let shouldStop: @Sendable () -> Bool

    /// A client for `baseURL` (`https://`, or `http://` to loopback only).
    public init(
        baseURL: String, service: AppleService, tokens: TokenIssuer, policy: RetryPolicy, concurrency: Int,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) throws(AppleAPIError) {
        self.shouldStop = shouldStop
        try Self.checkURL(baseURL)
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.service = service
        self.tokens = tokens
        self.policy = policy
        self.limit = ConcurrencyLimit(concurrency)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .milliseconds(Int64(policy.connectTimeout * 1000))),
            decompression: .disabled)
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, concurrency))
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Refuses plain HTTP except to this machine: a token sent in the clear is a key lent to the network.
    public static func checkURL(_ url: String) throws(AppleAPIError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw AppleAPIError.insecureURL(url) }
        if scheme == "https" { return }
        let loopback = host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        guard scheme == "http", loopback else { throw AppleAPIError.insecureURL(url) }
    }

    /// What the client did so far.
    public var statistics: RequestStatistics { counters.withLock { $0 } }

    /// Closes the connections; call once, after the last request.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// GETs `path` with `query`; returns the first answer that is neither retried nor a 401/403 (a 200, a 404, …).
    public func get(_ path: String, query: [(String, String)] = []) async throws -> AppleResponse {
        try await send("GET", path, query: query, json: nil)
    }

    /// POSTs `json` to `path`; answers as `get` does.
    public func post(_ path: String, query: [(String, String)] = [], json: [UInt8]) async throws -> AppleResponse {
        try await send("POST", path, query: query, json: json)
    }

    private func send(
        _ method: String, _ path: String, query: [(String, String)], json: [UInt8]?
    ) async throws -> AppleResponse {
        await limit.acquire()
        defer { Task { await limit.release() } }
        let url = baseURL + path + Self.queryString(query)
        // A pagination token is a cursor into Apple's data, not a secret, but it is long: named, not shown.
        let shownQuery = query.map { $0.0 == "paginationToken" ? ($0.0, "…") : $0 }
        let name =
            "\(method) \(path)"
            + (shownQuery.isEmpty ? "" : " (" + shownQuery.map { "\($0.0)=\($0.1)" }.joined(separator: ", ") + ")")
        var attempt = 0
        var waited = 0.0
        while true {
            attempt += 1
            try Task.checkCancellation()
            if shouldStop() { throw CancellationError() }
            let outcome: String
            var retryAfter: Double?
            let started = ContinuousClock.now
            do {
                let response = try await exchange(method, url, json: json)
                counters.withLock {
                    $0.requests += 1
                    $0.retries += attempt > 1 ? 1 : 0
                    $0.bytes += response.body.count
                    $0.networkSeconds += Self.seconds(since: started)
                }
                switch response.status {
                case 401:
                    throw AppleAPIError.unauthorized(
                        api: service, key: tokens.keyDescription, detail: response.errorDetail)
                case 403:
                    throw AppleAPIError.forbidden(
                        api: service, key: tokens.keyDescription, detail: response.errorDetail)
                case 429, 500, 502, 503, 504:
                    if response.status == 429 { counters.withLock { $0.rateLimited += 1 } }
                    retryAfter = RetryPolicy.retryAfterSeconds(response.headers["retry-after"])
                    outcome = "\(response.status) \(response.errorDetail)" + Self.rateLimitNote(response.headers)
                default: return response
                }
            } catch let error as AppleAPIError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                counters.withLock {
                    $0.requests += 1
                    $0.retries += attempt > 1 ? 1 : 0
                    $0.networkSeconds += Self.seconds(since: started)
                }
                outcome = "no answer (\(error))"
            }
            let delay = policy.delay(afterAttempt: attempt, retryAfter: retryAfter, random: Double.random(in: 0...1))
            guard attempt < policy.maxAttempts, waited + delay <= policy.retrySeconds else {
                throw AppleAPIError.retriesExhausted(
                    request: name, attempts: attempt, seconds: Int(waited.rounded()), last: outcome)
            }
            waited += delay
            counters.withLock { $0.backoffSeconds += delay }
            // In slices, so a stop request does not wait out a long Retry-After.
            var remaining = delay
            while remaining > 0 && !shouldStop() {
                try await Task.sleep(for: .milliseconds(Int64(min(remaining, 0.25) * 1000)))
                remaining -= 0.25
            }
        }
    }

    /// One attempt, head and whole body within the request timeout.
    private func exchange(_ method: String, _ url: String, json: [UInt8]?) async throws -> AppleResponse {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        request.headers.add(name: "Authorization", value: "Bearer " + (try tokens.token()))
        request.headers.add(name: "Accept", value: "application/json, application/a-gzip")
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json))
        }
        let timeout = policy.requestTimeout
        let client = client
        let prepared = request
        return try await withThrowingTaskGroup(of: AppleResponse?.self) { group in
            group.addTask {
                let response = try await client.execute(prepared, timeout: .milliseconds(Int64(timeout * 1000)))
                let body = try await response.body.collect(upTo: Self.maxBodyBytes)
                var headers: [String: String] = [:]
                for (name, value) in response.headers { headers[name.lowercased()] = value }
                return AppleResponse(
                    status: Int(response.status.code), headers: headers,
                    body: body.getBytes(at: body.readerIndex, length: body.readableBytes) ?? [])
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw TimeoutError(seconds: timeout)
            }
            return response
        }
    }

    private struct TimeoutError: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no complete response within \(Int(seconds)) s" }
    }

    /// Apple's hourly quota as its `X-Rate-Limit` header states it (`user-hour-lim:3600;user-hour-rem:0;`).
    static func rateLimitNote(_ headers: [String: String]) -> String {
        guard let value = headers["x-rate-limit"] else { return "" }
        var fields: [String: String] = [:]
        for part in value.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2 { fields[pair[0]] = pair[1] }
        }
        guard let remaining = fields["user-hour-rem"] else { return "" }
        return " (hourly quota: \(remaining) of \(fields["user-hour-lim"] ?? "?") left)"
    }

    static func queryString(_ query: [(String, String)]) -> String {
        guard !query.isEmpty else { return "" }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?")
        return "?"
            + query.map {
                ($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.0) + "="
                    + ($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)
            }.joined(separator: "&")
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
