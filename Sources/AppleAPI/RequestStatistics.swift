/// What a client did: requests and retries, bytes received, and how long requests were on the network.
public struct RequestStatistics: Sendable, Equatable, Codable {
    /// Attempts sent, retries included.
    public var requests = 0
    /// Attempts that were retries (after a 429, a 5xx or a broken connection).
    public var retries = 0
    /// 429 answers.
    public var rateLimited = 0
    /// Body bytes received, as Apple sent them.
    public var bytes = 0
    /// Seconds requests spent on the network, summed over every attempt (more than wall time when concurrent).
    public var networkSeconds = 0.0
    /// Seconds spent waiting to retry, summed.
    public var backoffSeconds = 0.0

    public init() {}

    /// Both together.
    public static func + (lhs: RequestStatistics, rhs: RequestStatistics) -> RequestStatistics {
        var sum = lhs
        sum.requests += rhs.requests
        sum.retries += rhs.retries
        sum.rateLimited += rhs.rateLimited
        sum.bytes += rhs.bytes
        sum.networkSeconds += rhs.networkSeconds
        sum.backoffSeconds += rhs.backoffSeconds
        return sum
    }

    public static func += (lhs: inout RequestStatistics, rhs: RequestStatistics) { lhs = lhs + rhs }
}
