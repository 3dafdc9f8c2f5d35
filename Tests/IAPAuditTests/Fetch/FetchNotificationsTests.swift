import AppleStandIn
import Foundation
import IAPAudit
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `iap-audit fetch notifications` and `run` with `[apple.server]`: notification history page by page, resumable.
@Suite(.serialized) struct FetchNotificationsTests {
    @Test func killedMidPaginationTheNextRunResumesAtItsPageAndStoresNothingTwice() throws {
        let test = try TestWorkspace()
        let apple = try NotificationFixture(test: test)
        // 400 notifications on one day: 20 pages; 10 never delivered.
        let day = NotificationFixture.daysAgo(2)
        let uuids = try apple.addNotifications(count: 400, from: day + 3_600_000, spacing: 60, undelivered: Set(0..<10))
        apple.standIn.setLatency(0.3)
        let config = try apple.configuration(extra: "concurrency = 2")
        let since = NotificationFixture.dayText(3)
        let (process, stdout, stderr) = try BinaryUnderTest.start(
            ["fetch", "notifications", "--config", config, "--since", since])
        let deadline = Date().addingTimeInterval(120)
        while apple.pageFiles.filter({
            $0.contains("/all/") && $0.contains(NotificationFixture.dayText(2).replacingOccurrences(of: "-", with: ""))
        }).count < 6
            && process.isRunning && Date() < deadline
        {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: stdout)
        try? FileManager.default.removeItem(at: stderr)
        let requestsBefore = apple.historyRequests.count
        let pagesBefore = apple.pageFiles.filter { $0.hasSuffix(".json") }.count
        #expect(pagesBefore >= 6)

        apple.standIn.setLatency(0)
        let out = test.directory.appendingPathComponent("out").path
        let resumed = try BinaryUnderTest.run(
            ["run", "--config", config, "--out", out, "--report", "reconciliation"])
        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        let pages = apple.pageFiles
        #expect(!pages.contains { $0.contains(".partial-") })
        let allPages = pages.filter {
            $0.contains("/all/") && $0.contains(NotificationFixture.dayText(2).replacingOccurrences(of: "-", with: ""))
        }
        #expect(allPages.count == 20, "\(allPages)")
        // The second run asked for the pages the first had not stored (and one in flight when it was killed), not
        // for the window again.
        let asked = apple.historyRequests.count - requestsBefore
        #expect(asked <= 20 - 6 + 1 + 8, "asked \(asked) times after the kill")
        // Every notification stored once.
        #expect(try test.count("SELECT count(*) FROM app_store_notification") == 400)
        #expect(
            try test.count(
                "SELECT count(*) FROM signed_object s JOIN receipt r ON r.id = s.receipt_id JOIN input_file f ON f.id = r.file_id "
                    + "WHERE s.kind = 'notification' AND f.path LIKE '%/all/%'") == 400)
        #expect(
            try test.count("SELECT count(*) FROM signed_object WHERE kind = 'notification' AND outcome <> 'verified'")
                == 0)
        #expect(
            resumed.stdout.contains("10 Apple never delivered") || resumed.stdout.contains("Apple never delivered"),
            "\(resumed.stdout)")
        #expect(uuids.count == 400)

        // The next run asks only for what is new: one window per stream, from where the last one ended.
        let before = apple.historyRequests.count
        let again = try BinaryUnderTest.run(["fetch", "notifications", "--config", config])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(apple.historyRequests.count - before == 2, "\(again.stdout)")
    }

    @Test func anExpiredTokenRestartsTheWindow() throws {
        let (apple, result) = try Self.fetchAHundredNotifications { $0.expireNextToken() }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 windows restarted (pagination token refused)"), "\(result.stdout)")
        #expect(apple.pageFiles.filter { $0.contains("/all/") }.count == 5, "\(apple.pageFiles)")
    }

    @Test func aRepeatedPageIsNotStoredAgain() throws {
        let (_, result) = try Self.fetchAHundredNotifications { $0.repeatNextPage() }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1 repeated pages skipped"), "\(result.stdout)")
        #expect(result.stdout.contains("notifications: 100 in 5 pages"), "\(result.stdout)")
    }

    /// `fetch notifications --since` yesterday over 100 notifications an hour into it (five pages of one window,
    /// fetched one window at a time), after `fault` set what the stand-in does wrong next.
    static func fetchAHundredNotifications(
        after fault: (AppleStandIn) -> Void
    ) throws -> (apple: NotificationFixture, result: BinaryUnderTest.Outcome) {
        let apple = try NotificationFixture(test: try TestWorkspace())
        try apple.addNotifications(count: 100, from: NotificationFixture.daysAgo(1) + 3_600_000)
        let config = try apple.configuration(extra: "concurrency = 1")
        fault(apple.standIn)
        let result = try BinaryUnderTest.run(
            ["fetch", "notifications", "--config", config, "--since", NotificationFixture.dayText(1)])
        return (apple, result)
    }
}

/// The completeness report: what Apple sent that our servers never recorded, and what Apple never delivered.
@Suite(.serialized) struct NotificationCompletenessTests {
    @Test func aFetchedNotificationTheServersNeverRecordedIsInTheCompletenessReport() throws {
        let test = try TestWorkspace()
        let apple = try NotificationFixture(test: test)
        let start = NotificationFixture.daysAgo(1) + 7_200_000
        let uuids = try apple.addNotifications(count: 5, from: start, undelivered: [4])
        // Our servers recorded the first three, as the V2 bodies Apple posted.
        let recorded = try test.write(
            "recorded.jsonl",
            try apple.standIn.signedPayloads(of: Array(uuids.prefix(3)))
                .map { #"{"signedPayload": "\#($0)"}"# }.joined(separator: "\n") + "\n")
        let config = try apple.configuration()
        let out = test.directory.appendingPathComponent("out").path
        let result = try BinaryUnderTest.run(
            [
                "run", "--config", config, "--receipts", recorded, "--out", out, "--report",
                "notification-completeness",
                "--report", "reconciliation",
            ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let report = try BinaryUnderTest.run(
            ["report", "notification-completeness", "--database-url", test.conninfo, "--format", "csv"])
        #expect(report.status == 0, "\(report.stderr)")
        let lines = report.stdout.split(whereSeparator: \.isNewline).map(String.init)
        #expect(lines.count == 2, "\(report.stdout)")
        let row = lines.last ?? ""
        #expect(row.contains("ONE_TIME_CHARGE,5,2,1,2,"), "\(row)")
        #expect(row.contains(uuids[3]) && row.contains(uuids[4]) && !row.contains(uuids[0]), "\(row)")
        #expect(FileManager.default.fileExists(atPath: out + "/notification-completeness.csv"))
        // The transactions they carry are purchases like any other.
        #expect(try test.count("SELECT count(*) FROM purchase WHERE transaction_id LIKE '9%'") == 5)
    }
}
