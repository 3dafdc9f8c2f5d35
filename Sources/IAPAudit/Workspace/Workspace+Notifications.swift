internal import AppStoreFormats
internal import Foundation
internal import Postgres

/// Notification history (`fetch notifications`, and `fetch`/`run` with `[apple.server]`): windows of a day at most,
/// resumable at their page through `apple_notification_window`.
extension Workspace {
    func fetchNotifications(
        _ server: FetchPlan.ServerPlan, plan: FetchPlan, runID: Int64?, stop: StopRequest,
        into summary: inout FetchSummary
    ) throws {
        var counts = summary.notifications ?? .init()
        defer { summary.notifications = counts }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        // Apple refuses a window that starts before its limit at the moment it is asked, which for the last windows
        // of a long fetch is minutes or hours after this one: new windows start a day inside the limit, and an
        // unfinished one is given up once it is within ten minutes of it.
        let limit = now - Int64(server.historyDays) * 86_400_000
        let oldest = limit + 86_400_000
        let givenUp = limit + 600_000
        let since = plan.notificationsSince.map { Int64(Self.epochDay($0)) * 86_400_000 }
        var windows: [NotificationWindow] = []
        for bundleID in server.bundleIDs {
            for onlyFailures in [false, true] {
                let stream = [bundleID, server.environment, onlyFailures ? "true" : "false"]
                if !plan.isDryRun {
                    let expired = try connection.query(
                        SQLQuery.notificationWindowsGiveUp.text, stream + ["\(givenUp)"],
                        context: "give up notification windows Apple no longer keeps")
                    counts.expiredWindows += expired.affectedRows
                }
                let open = try connection.query(
                    SQLQuery.notificationWindowsUnfinished.text, stream + ["\(givenUp)"],
                    context: "read unfinished notification windows")
                for row in open.allRows {
                    windows.append(
                        NotificationWindow(
                            bundleID: bundleID, environment: server.environment, onlyFailures: onlyFailures,
                            start: try row.decode(Int64.self, "start_ms"), end: try row.decode(Int64.self, "end_ms"),
                            nextToken: try row.string("next_token"), pages: try row.decode(Int.self, "pages")))
                }
                let covered = try connection.query(
                    SQLQuery.notificationWindowsSpan.text, stream,
                    context: "read how far notification history was fetched")
                let first = try covered.first(Int64?.self, "first_ms")
                let last = try covered.first(Int64?.self, "last_ms")
                var spans: [(Int64, Int64)] = []
                let from = max(since ?? last ?? oldest, oldest)
                if let first, let last {
                    if from < first { spans.append((from, first)) }
                    if last < now { spans.append((max(last, from), now)) }
                } else {
                    spans.append((from, now))
                }
                for (start, end) in spans where start < end {
                    for (windowStart, windowEnd) in NotificationWindow.days(from: start, to: end) {
                        windows.append(
                            NotificationWindow(
                                bundleID: bundleID, environment: server.environment, onlyFailures: onlyFailures,
                                start: windowStart, end: windowEnd, nextToken: nil, pages: 0))
                    }
                }
            }
        }
        // Oldest first, across apps and streams: the windows nearest Apple's limit are asked for before they pass it.
        windows.sort {
            ($0.start, $0.bundleID, $0.onlyFailures ? 1 : 0) < ($1.start, $1.bundleID, $1.onlyFailures ? 1 : 0)
        }
        guard !plan.isDryRun else {
            counts.pendingWindows += windows.count
            return
        }
        for window in windows where window.pages == 0 && window.nextToken == nil {
            try connection.query(
                SQLQuery.notificationWindowRecord.text,
                [
                    window.bundleID, window.environment, window.onlyFailures ? "true" : "false", "\(window.start)",
                    "\(window.end)", runID.map { Int($0) },
                ], context: "record a notification window")
        }
        counts.windows += windows.count
        guard !windows.isEmpty else { return }
        var finishedWindows = Set<String>()
        try runServerFetch(
            NotificationFetcher.self, windows, folder: plan.notificationsFolder, server: server, plan: plan, stop: stop,
            into: &summary
        ) { progress in
            switch progress {
            case .page(let window, let number, let next, let hasMore, let count, let repeated):
                try connection.query(
                    SQLQuery.notificationWindowPage.text,
                    [
                        window.bundleID, window.environment, window.onlyFailures ? "true" : "false", "\(window.start)",
                        next, number, count, hasMore ? "true" : "false", runID.map { Int($0) },
                    ], context: "record a notification page")
                if repeated { counts.repeatedPages += 1 } else if count > 0 { counts.pages += 1 }
                counts.notifications += count
                if window.onlyFailures { counts.undelivered += count }
                if !hasMore { finishedWindows.insert(window.key) }
                onProgress?(
                    Progress(
                        stage: "fetch notifications", filesDone: finishedWindows.count, filesTotal: windows.count,
                        records: counts.notifications, lastFile: NotificationWindow.pageName(number)))
            case .restarted(let window):
                counts.restartedWindows += 1
                try connection.query(
                    SQLQuery.notificationWindowRestart.text,
                    [window.bundleID, window.environment, window.onlyFailures ? "true" : "false", "\(window.start)"],
                    context: "restart a notification window")
            }
        }
        counts.pendingWindows += windows.count - finishedWindows.count
    }

    /// Days since 1970-01-01 of a calendar date.
    static func epochDay(_ date: CalendarDate) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        let day = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day)) ?? Date()
        return Int(day.timeIntervalSince1970 / 86_400)
    }
}
