internal import Foundation

/// How hard to try: per-request timeout, attempts, and the whole time one request may spend waiting to retry.
public struct RetryPolicy: Sendable, Equatable {
    /// The longest one attempt may take, first byte to last (a response that never ends is cut here).
    public var requestTimeout: Double = 120
    /// The longest to wait for a connection.
    public var connectTimeout: Double = 10
    /// The most attempts of one request.
    public var maxAttempts = 8
    /// The most seconds one request may spend waiting between attempts, all waits together; a `Retry-After` that
    /// would pass it ends the request at once.
    public var retrySeconds: Double = 300
    /// The first backoff; each later one doubles, up to `maxDelay`.
    public var baseDelay: Double = 1
    /// The longest single backoff (a `Retry-After` may ask for more, within `retrySeconds`).
    public var maxDelay: Double = 60

    public init() {}

    /// The wait before attempt `attempt + 1` (`attempt` counts from 1): exponential backoff with full jitter, and
    /// never less than what Apple's `Retry-After` asked for.
    func delay(afterAttempt attempt: Int, retryAfter: Double?, random: Double) -> Double {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        let backoff = ceiling * (0.5 + random / 2)
        guard let retryAfter else { return backoff }
        // Honour Apple's answer, plus a little jitter so concurrent requests do not come back as one.
        return retryAfter + min(1, backoff) * random
    }

    /// Seconds from a `Retry-After` header: a number of seconds, or an HTTP date.
    static func retryAfterSeconds(_ value: String?, now: Date = Date()) -> Double? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
