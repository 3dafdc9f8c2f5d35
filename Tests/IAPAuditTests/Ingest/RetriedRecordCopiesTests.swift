import Foundation
import IAPAudit
import Testing

/// A record stored before (a recorder's retry) is dropped with its staged copies after the file has loaded; a copy
/// that was not staged because of a dropped copy must still reach the merge. Day 1 buys transaction 7, day 2 refunds
/// it; day 4, requested later, shows it without the refund (Apple reversed it), next to a retry of day 1's record.
/// Staging every kept record's copies, the reversal is the latest copy and the refund no longer stands.
struct RetriedRecordCopiesTests {
    static let day = 86_400_000
    static let start = OverlapSettledCopiesTests.purchaseMilliseconds

    static func record(_ id: String, day number: Int, refunded: Bool = false) -> String {
        OverlapSettledCopiesTests.record(id, requestedAt: start + number * day, refunded: refunded)
    }

    /// Days 1 and 2, each its own run: transaction 7 bought, then refunded.
    static func refund(in test: TestWorkspace) throws {
        for (name, line) in [("1", record("7", day: 1)), ("2", record("7", day: 2, refunded: true))] {
            _ = try test.workspace.ingestReceipts(paths: [try test.write("days/\(name).jsonl", line + "\n")])
        }
    }

    /// Within one file: the retry comes first, so the reversal's copy repeats the retry's staged copy; the retry is
    /// then dropped as stored before, and the reversal must not go with it.
    @Test func aReversalAfterARetriedRecordInItsFileReachesTheMerge() throws {
        let reference = try TestWorkspace()
        try Self.refund(in: reference)
        _ = try reference.workspace.ingestReceipts(paths: [
            try reference.write("days/4.jsonl", Self.record("7", day: 4) + "\n")
        ])
        let expected = try OverlapSettledCopiesTests.state(reference)
        // The purchase as first stored, the refund, the reversal.
        #expect(expected.refunded == 0 && expected.history == 3)

        let retried = try TestWorkspace()
        try Self.refund(in: retried)
        let summary = try retried.workspace.ingestReceipts(paths: [
            try retried.write("days/4.jsonl", Self.record("7", day: 1) + "\n" + Self.record("7", day: 4) + "\n")
        ])
        #expect(summary.alreadyStored == 1)
        let actual = try OverlapSettledCopiesTests.state(retried)
        // Not fixed (session 20's review): `TransactionCopies` skips the reversal's copy as a repeat of the retry's,
        // while the loader cannot know yet that the dedupe will drop the retry. Fails once it is fixed: unwrap then.
        withKnownIssue("a copy skipped as a repeat of a retried record's copy is lost with it") {
            #expect(actual.refunded == expected.refunded, "the refund still stands: the reversal went with the retry")
            #expect(actual.history == expected.history)
        }
    }

    /// Across files of one run: a file whose only copy of transaction 7 is in a retried record must not settle it
    /// (the merge never saw that copy), so two files later the reversal is still staged.
    @Test func aRetriedRecordSettlesNothingForTheFilesAfterIt() throws {
        func writeToday(into test: TestWorkspace) throws -> [String] {
            [
                try test.write(
                    "today/a.jsonl", Self.record("7", day: 1) + "\n" + Self.record("g0", day: 3) + "\n"),
                try test.write("today/b.jsonl", Self.record("g1", day: 3) + "\n"),
                try test.write("today/c.jsonl", Self.record("7", day: 4) + "\n"),
            ]
        }
        let perFile = try TestWorkspace()
        try Self.refund(in: perFile)
        for path in try writeToday(into: perFile) { _ = try perFile.workspace.ingestReceipts(paths: [path]) }
        let expected = try OverlapSettledCopiesTests.state(perFile)
        #expect(expected.refunded == 0 && expected.history == 3)

        let oneRun = try TestWorkspace()
        try Self.refund(in: oneRun)
        let summary = try oneRun.workspace.ingestReceipts(paths: try writeToday(into: oneRun))
        #expect(summary.filesIngested == 3 && summary.alreadyStored == 1)
        let actual = try OverlapSettledCopiesTests.state(oneRun)
        #expect(actual.refunded == expected.refunded, "the refund still stands: day 4's copy was skipped as settled")
        #expect(actual.history == expected.history)
    }
}
