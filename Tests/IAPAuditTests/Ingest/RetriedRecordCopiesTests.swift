import Foundation
import IAPAudit
import Postgres
import TestSupport
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
        #expect(actual.refunded == expected.refunded, "the refund still stands: the reversal went with the retry")
        #expect(actual.history == expected.history)
    }

    /// Every purchase's state and every `purchase_state` row, told apart by when Apple said it (receipt ids differ
    /// between databases).
    static func states(_ test: TestWorkspace) throws -> [[String?]] {
        try test.connection.query(
            "SELECT transaction_id, cancellation_date IS NOT NULL, is_upgraded FROM purchase ORDER BY 1"
        ).rows
            + test.connection.query(
                "SELECT transaction_id, signed_at, cancellation_date IS NOT NULL FROM purchase_state ORDER BY 1, 2, 3"
            ).rows
    }

    /// After days 1 and 2, ingests `files` (each a list of records), in one run or one file a run; returns what is
    /// stored and how many records were found stored before.
    static func ingest(_ files: [[String]], oneRun: Bool = true) throws -> (states: [[String?]], alreadyStored: Int) {
        let test = try TestWorkspace()
        try refund(in: test)
        let paths = try files.enumerated().map { index, records in
            try test.write("today/\(index).jsonl", records.joined(separator: "\n") + "\n")
        }
        var alreadyStored = 0
        for run in oneRun ? [paths] : paths.map({ [$0] }) {
            alreadyStored += try test.workspace.ingestReceipts(paths: run).alreadyStored
        }
        return (try states(test), alreadyStored)
    }

    /// A file with retried records stores what the same file without them stores.
    static func expectSameAsWithoutRetries(
        _ file: [String], retried: Set<Int>, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let without = file.enumerated().filter { !retried.contains($0.offset) }.map(\.element)
        let expected = try ingest([without])
        let actual = try ingest([file])
        #expect(actual.alreadyStored == retried.count, sourceLocation: sourceLocation)
        #expect(actual.states == expected.states, sourceLocation: sourceLocation)
    }

    /// The retry after the reversal: the retry's copy repeats the reversal's and was never staged.
    @Test func aRetryAfterTheReversalInItsFileChangesNothing() throws {
        try Self.expectSameAsWithoutRetries([Self.record("7", day: 4), Self.record("7", day: 1)], retried: [1])
    }

    /// Two retries (the refund's, then the purchase's) before the reversal, which repeats the second one's copy.
    @Test func twoRetriesBeforeTheReversalInItsFile() throws {
        try Self.expectSameAsWithoutRetries(
            [Self.record("7", day: 2, refunded: true), Self.record("7", day: 1), Self.record("7", day: 4)],
            retried: [0, 1])
    }

    /// The retry holds the file's only copy of transaction 7: nothing is staged again.
    @Test func aRetryWhoseCopyIsTheOnlyOneInItsFile() throws {
        try Self.expectSameAsWithoutRetries([Self.record("7", day: 1), Self.record("g", day: 4)], retried: [0])
    }

    /// A record repeated later in its own file: the repeat is dropped, and the later reversal that repeats its copy
    /// (not the first occurrence's: a refund came between) must stay.
    @Test func aRecordRepeatedInItsOwnFileBeforeAReversal() throws {
        let reversal = Self.record("7", day: 3)
        try Self.expectSameAsWithoutRetries(
            [reversal, Self.record("7", day: 5, refunded: true), reversal, Self.record("7", day: 6)], retried: [2])
    }

    /// Across the two lanes of a run: the second file retries a record of the first (still running its statements
    /// while the second loads), then holds a later copy that repeats it. One run stores what one file a run stores
    /// without the retry.
    @Test func aRetryOfTheFileBeforeOnTheOtherLane() throws {
        let fillers = (0..<4000).map { Self.record("f\($0)", day: 3) }
        let reversal = Self.record("7", day: 3)
        let expected = try Self.ingest([fillers + [reversal], [Self.record("7", day: 4)]], oneRun: false)
        let actual = try Self.ingest([fillers + [reversal], [reversal, Self.record("7", day: 4)]])
        #expect(actual.alreadyStored == 1)
        // Days 1 and 2's purchase and refund, day 3's reversal, day 4's copy.
        #expect(expected.states.filter { $0.first == "7" }.count == 5)
        #expect(actual.states == expected.states, "day 4's copy went with the retry of day 3's record")
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

    /// A dry run keeps all its files in one transaction: two files that each stage copies again in it end cleanly.
    /// Through the binary.
    @Test func aDryRunStagesCopiesAgainInTwoFiles() throws {
        let test = try TestWorkspace()
        try Self.refund(in: test)
        _ = try test.write("today/a.jsonl", Self.record("7", day: 1) + "\n" + Self.record("7", day: 4) + "\n")
        _ = try test.write(
            "today/b.jsonl", Self.record("7", day: 2, refunded: true) + "\n" + Self.record("7", day: 5) + "\n")
        let result = try BinaryUnderTest.run([
            "run", "--dry-run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("today").path, "--out", test.demoOut,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }
}
