package import AppStoreFormats
package import AppleAPI
package import Foundation

/// What `fetch` will do, with every setting checked: the App Store Connect reports (when `[apple.connect]` is set),
/// the spool, and how hard to try. Keys are read when the plan is made, so a bad key fails before any request.
package struct FetchPlan: Sendable {
    /// The reports part, when `[apple.connect]` is configured.
    package var reports: ReportsPlan?
    /// The App Store Server API part, when `[apple.server]` is configured.
    package var server: ServerPlan?
    /// Fetch notification history from this day on (`fetch notifications --since`), instead of from where the last
    /// fetch ended (or as far back as Apple keeps it, the first time).
    package var notificationsSince: CalendarDate?
    /// Where fetched files are archived: `<spool>/reports/` and so on.
    package var spool: String
    /// Timeouts and the retry bound.
    package var policy = RetryPolicy()
    /// The most requests in flight at once.
    package var concurrency = 4
    /// `fetch history`: the transactions whose transaction and refund history to fetch.
    package var history: HistorySubjects?

    /// The transactions `fetch history` names.
    package struct HistorySubjects: Sendable {
        /// `--transaction ID…` and the ids of `--from-file` (one a line).
        package var transactionIDs: [String] = []
        /// `--flagged`: the transactions of open flags (their own, or those of a flagged account's purchases).
        package var flagged = false

        package init(transactionIDs: [String] = [], flagged: Bool = false) {
            self.transactionIDs = transactionIDs
            self.flagged = flagged
        }
    }

    /// The folder history pages go to (ingested as receipts).
    package var historyFolder: String { spool + "/history" }

    /// Say what would be fetched; ask Apple nothing.
    package var isDryRun = false

    /// `[apple.connect]`, checked.
    package struct ReportsPlan: Sendable {
        package var key: APIKey
        package var vendorNumber: String
        package var kinds: [ReportKind]
        package var since: CalendarDate
        package var until: CalendarDate
        package var url: String
    }

    /// `[apple.server]`, checked.
    package struct ServerPlan: Sendable {
        package var key: APIKey
        package var bundleIDs: [String]
        package var environment: String
        package var url: String

        /// Days of notification history Apple keeps: 180 in production, 30 in the sandbox.
        package var historyDays: Int { environment == "Sandbox" ? 30 : 180 }
    }

    /// The folder notification-history pages go to (what `run` then ingests as receipts).
    package var notificationsFolder: String { spool + "/notifications" }

    /// The default spool: `$IAP_AUDIT_HOME/apple`, else `~/.local/share/iap-audit/apple`.
    static func defaultSpool(environment: [String: String]) -> String {
        if let home = environment["IAP_AUDIT_HOME"], !home.isEmpty { return home + "/apple" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/iap-audit/apple"
    }

    /// The folder fetched reports go to (what `run` then ingests as sales reports).
    package var reportsFolder: String { spool + "/reports" }

    /// Checks `configuration` and reads the keys; `today` is the current day in Apple's Pacific reporting time.
    package init(
        _ configuration: AppleConfiguration, environment: [String: String],
        today: CalendarDate = FetchPlan.pacificToday()
    ) throws(IAPAuditError) {
        func fail(_ key: String, _ message: String) -> IAPAuditError {
            IAPAuditError.configuration("apple.\(key): \(message)")
        }
        let common = configuration.common
        spool = common["spool"]?.text ?? Self.defaultSpool(environment: environment)
        if let value = common["concurrency"] {
            guard let number = Int(value.text), (1...64).contains(number) else {
                throw fail("concurrency", "takes a number of requests from 1 to 64, not \(value.text)")
            }
            concurrency = number
        }
        if let value = common["timeout"] {
            guard let seconds = Double(value.text), seconds > 0 else {
                throw fail("timeout", "takes seconds, not \(value.text)")
            }
            policy.requestTimeout = seconds
        }
        if let value = common["retry_seconds"] {
            guard let seconds = Double(value.text), seconds >= 0 else {
                throw fail("retry_seconds", "takes seconds, not \(value.text)")
            }
            policy.retrySeconds = seconds
        }
        if !configuration.connect.isEmpty {
            reports = try Self.reportsPlan(configuration.connect, today: today)
        }
        if !configuration.server.isEmpty {
            server = try Self.serverPlan(configuration.server)
        }
    }

    private static func reportsPlan(
        _ values: [String: AppleConfiguration.Value], today: CalendarDate
    ) throws(IAPAuditError)
        -> ReportsPlan
    {
        let section = Section(name: "connect", values: values)
        let key = try section.key()
        let vendor = try section.required("vendor_number")
        guard vendor.allSatisfy(\.isNumber) else { throw section.fail("vendor_number", "takes digits, not \(vendor)") }
        var kinds: [ReportKind] = []
        for name in values["reports"]?.list ?? [ReportKind.salesDaily.rawValue, ReportKind.financial.rawValue] {
            guard let kind = ReportKind(rawValue: name) else {
                throw section.fail(
                    "reports",
                    "unknown report \(name) (known: \(ReportKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        // Apple publishes a day's reports by the next morning, Pacific time.
        let latest = today.adding(days: -1)
        var until = latest
        if let text = values["until"]?.text {
            guard let date = CalendarDate(text), text.contains("-") else {
                throw section.fail("until", "takes YYYY-MM-DD, not \(text)")
            }
            until = min(date, latest)
        }
        var since = until.adding(days: -364)
        if let text = values["since"]?.text {
            guard let date = CalendarDate(text), text.contains("-") else {
                throw section.fail("since", "takes YYYY-MM-DD, not \(text)")
            }
            since = date
        }
        guard since <= until else { throw section.fail("since", "\(since) is after the last day to fetch, \(until)") }
        let url = values["url"]?.text ?? "https://api.appstoreconnect.apple.com"
        do { try AppleHTTPClient.checkURL(url) } catch { throw IAPAuditError.apple(error) }
        return ReportsPlan(key: key, vendorNumber: vendor, kinds: kinds.sorted(), since: since, until: until, url: url)
    }

    /// One `[apple.<name>]` section's values: the refusals name the key as the file and the environment spell it.
    private struct Section {
        let name: String
        let values: [String: AppleConfiguration.Value]

        func fail(_ key: String, _ message: String) -> IAPAuditError {
            IAPAuditError.configuration("apple.\(name).\(key): \(message)")
        }

        func required(_ key: String) throws(IAPAuditError) -> String {
            guard let value = values[key]?.text, !value.isEmpty else {
                throw fail(
                    key, "is required in [apple.\(name)] (or IAP_AUDIT_APPLE_\(name.uppercased())_\(key.uppercased()))")
            }
            return value
        }

        /// The section's API key: its id, its issuer and its `.p8` file (refused when others can read it).
        func key() throws(IAPAuditError) -> APIKey {
            let keyPath = try required("private_key_file")
            do {
                return try APIKey(keyID: try required("key_id"), issuerID: try required("issuer_id"), path: keyPath)
            } catch let error as AppleAPIError {
                throw IAPAuditError.apple(error)
            } catch let error as IAPAuditError {
                throw error
            } catch {
                throw fail("private_key_file", "\(error)")
            }
        }
    }

    private static func serverPlan(_ values: [String: AppleConfiguration.Value]) throws(IAPAuditError) -> ServerPlan {
        let section = Section(name: "server", values: values)
        let key = try section.key()
        let bundleIDs = values["bundle_ids"]?.list.filter { !$0.isEmpty } ?? []
        guard !bundleIDs.isEmpty else { throw section.fail("bundle_ids", "names no app: give the apps' bundle ids") }
        let environment = values["environment"]?.text ?? "Production"
        guard ["Production", "Sandbox"].contains(environment) else {
            throw section.fail("environment", "takes Production or Sandbox, not \(environment)")
        }
        let url = values["url"]?.text ?? AppStoreServerClient.defaultURL(environment: environment)
        do { try AppleHTTPClient.checkURL(url) } catch { throw IAPAuditError.apple(error) }
        return ServerPlan(key: key, bundleIDs: bundleIDs, environment: environment, url: url)
    }

    /// A `YYYY-MM-DD` date, or nil.
    package static func day(_ text: String) -> CalendarDate? {
        text.contains("-") ? CalendarDate(text) : nil
    }

    /// Today in America/Los_Angeles, the time zone Apple's reporting day follows.
    package static func pacificToday(_ now: Date = Date()) -> CalendarDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/Los_Angeles") ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        guard let today = CalendarDate(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0) else {
            preconditionFailure("the Gregorian calendar gave a day that does not exist")
        }
        return today
    }
}
