package import AppleAPI

/// What one fetch did: per report kind, what was already held, fetched, or not there yet; the requests it took; and
/// why it stopped, when it failed. Stored in the run's record and printed.
package struct FetchSummary: Sendable, Encodable, Equatable {
    /// Counts for one report kind.
    package struct ReportCounts: Sendable, Codable, Equatable {
        /// Periods whose file the spool already held (or that Apple said had no sales, long enough ago).
        package var held = 0
        /// Reports downloaded and stored by this fetch.
        package var fetched = 0
        /// Their bytes, as Apple sent them.
        package var bytes = 0
        /// Periods Apple answered "no sales" for: no report will ever exist.
        package var noSales = 0
        /// Periods Apple has not published yet: asked again next run.
        package var notPublished = 0
        /// Periods a dry run would ask for, or that a failed fetch did not get to.
        package var pending = 0

        package init() {}
    }

    /// Notification history, when `[apple.server]` is configured.
    package struct NotificationCounts: Sendable, Codable, Equatable {
        /// Windows (a day at most, per app and stream) asked for, resumed ones included.
        package var windows = 0
        /// Windows a dry run would ask for, or a failed fetch did not finish.
        package var pendingWindows = 0
        /// Pages stored.
        package var pages = 0
        /// Notifications on them (each stream counted: the undelivered ones appear in both).
        package var notifications = 0
        /// Notifications Apple says it never delivered (the `onlyFailures` stream).
        package var undelivered = 0
        /// Pages Apple sent twice in a row, not stored again.
        package var repeatedPages = 0
        /// Windows started over because Apple refused their pagination token.
        package var restartedWindows = 0
        /// Windows left unfinished that Apple no longer keeps (older than its 180 days).
        package var expiredWindows = 0

        package init() {}
    }

    /// Transaction and refund history (`fetch history`).
    package struct HistoryCounts: Sendable, Codable, Equatable {
        /// Transactions whose history was asked for.
        package var transactionsAsked = 0
        /// Pages stored (pages without transactions are not).
        package var pages = 0
        /// Signed transactions on the transaction-history pages, and on the refund-history pages.
        package var transactions = 0
        package var refunds = 0
        /// Transactions no configured app's key knows (Apple answered 404).
        package var unknown: [String] = []

        package init() {}
    }

    /// `fetch history`; nil otherwise.
    package var history: HistoryCounts?
    /// Notification history; nil when not configured.
    package var notifications: NotificationCounts?
    /// By report kind (`sales-daily`, `financial`, …).
    package var reports: [String: ReportCounts] = [:]
    /// The periods Apple has not published yet, by file name (asked again next run).
    package var notPublished: [String] = []
    /// What the requests cost, every client's added up: requests, retries, 429 answers, bytes, network and backoff
    /// seconds.
    package var requestStatistics = RequestStatistics()
    /// The fetch's wall time, in seconds.
    package var seconds = 0.0
    /// Why the fetch stopped early; nil when it did all it set out to do.
    package var failure: String?
    /// The exit code the failure means (76, 77, 78), 0 when none.
    package var exitCode: Int32 = 0
    /// True for `--dry-run`: nothing was asked of Apple.
    package var isDryRun = false

    package init() {}

    private enum CodingKeys: String, CodingKey {
        case history, notifications, reports, notPublished, seconds, failure, exitCode, isDryRun
    }

    /// The request counters are stored beside the other keys, not nested, as they were before they were a
    /// `RequestStatistics`: stored run records and the queries that read them keep one shape.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(history, forKey: .history)
        try container.encodeIfPresent(notifications, forKey: .notifications)
        try container.encode(reports, forKey: .reports)
        try container.encode(notPublished, forKey: .notPublished)
        try container.encode(seconds, forKey: .seconds)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encode(exitCode, forKey: .exitCode)
        try container.encode(isDryRun, forKey: .isDryRun)
        try requestStatistics.encode(to: encoder)
    }

    /// Every kind's counts added up.
    package var total: ReportCounts {
        reports.values.reduce(into: ReportCounts()) { sum, counts in
            sum.held += counts.held
            sum.fetched += counts.fetched
            sum.bytes += counts.bytes
            sum.noSales += counts.noSales
            sum.notPublished += counts.notPublished
            sum.pending += counts.pending
        }
    }
}
