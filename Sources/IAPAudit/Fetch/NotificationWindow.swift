internal import Foundation

/// One window of notification history for one app and stream, and where its pagination stands.
struct NotificationWindow: Sendable, Hashable {
    var bundleID: String
    var environment: String
    var onlyFailures: Bool
    /// Milliseconds since 1970, start inclusive, end exclusive.
    var start: Int64
    var end: Int64
    /// The next page's pagination token; nil before the first page.
    var nextToken: String?
    /// Pages stored so far.
    var pages: Int

    /// Identifies the window whatever its progress.
    var key: String { "\(bundleID)|\(environment)|\(onlyFailures)|\(start)" }

    /// The folder its page files go to: `<bundle>/<environment>/<all|failures>/<start>_<end>`, UTC times.
    func folder(in root: String) -> String {
        "\(root)/\(bundleID)/\(environment)/\(onlyFailures ? "failures" : "all")/"
            + "\(Self.stamp(start))_\(Self.stamp(end))"
    }

    /// A page's file name: `page-00001.json`.
    static func pageName(_ number: Int) -> String { String(format: "page-%05d.json", number) }

    /// `20250301T000000Z`.
    static func stamp(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// `start..<end` cut at each UTC midnight: windows of a day at most, fetched side by side.
    static func days(from start: Int64, to end: Int64) -> [(Int64, Int64)] {
        let day: Int64 = 86_400_000
        var windows: [(Int64, Int64)] = []
        var from = start
        while from < end {
            let midnight = (from / day + 1) * day
            windows.append((from, min(midnight, end)))
            from = min(midnight, end)
        }
        return windows
    }
}
