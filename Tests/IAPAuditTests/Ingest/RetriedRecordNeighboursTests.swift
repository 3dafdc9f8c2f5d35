import Foundation
import IAPAudit
import TestSupport
import Testing

/// A retried record next to what else a file may hold: the second read must line up with the first around quarantined
/// lines, and in a grown file's new lines (both pass on s21-retry; kept as the review's evidence that they hold).
struct RetriedRecordNeighboursTests {
    /// Unreadable lines before and after the retry: the second read skips the same record numbers the drop found.
    @Test func aQuarantinedLineBeforeAndAfterTheRetry() throws {
        try RetriedRecordCopiesTests.expectSameAsWithoutRetries(
            [
                "{not json", RetriedRecordCopiesTests.record("7", day: 1), "[1,2",
                RetriedRecordCopiesTests.record("7", day: 4),
            ], retried: [1])
    }

    /// A file read before, grown by a retry and a copy that repeats it: the second read covers the new lines only,
    /// and stores what the grown lines without the retry store.
    @Test func aGrownFileWithARetryInItsNewLines() throws {
        func run(retry: Bool) throws -> [[String?]] {
            let test = try TestWorkspace()
            try RetriedRecordCopiesTests.refund(in: test)
            let first = RetriedRecordCopiesTests.record("g", day: 3) + "\n"
            let path = try test.write("today/spool.jsonl", first)
            _ = try test.workspace.ingestReceipts(paths: [path])
            let grown =
                (retry ? RetriedRecordCopiesTests.record("7", day: 1) + "\n" : "")
                + RetriedRecordCopiesTests.record("7", day: 4) + "\n"
            try test.write("today/spool.jsonl", first + grown)
            let summary = try test.workspace.ingestReceipts(paths: [path])
            #expect(summary.alreadyStored == (retry ? 1 : 0))
            #expect(summary.stored == 1)
            return try RetriedRecordCopiesTests.states(test)
        }
        #expect(try run(retry: true) == run(retry: false))
    }
}
