import Foundation
import IAPAudit
import TestSupport
import Testing

@testable import IAPAudit

/// A spool a recorder appends to while the run reads it, holding a retried record: the second read of the file
/// (`restageCopiesOfRetriedRecords`) must read what the first read read, and the appended record waits for the next
/// run, as it does in a file without a retry.
struct RetriedRecordGrowingSpoolTests {
    /// The record is appended once the file's rows are loaded, before the drop finds the retry and reads it again.
    @Test func aRecordAppendedBetweenTheTwoReadsWaitsForTheNextRun() throws {
        let test = try TestWorkspace()
        try RetriedRecordCopiesTests.refund(in: test)
        let path = try test.write(
            "today/spool.jsonl",
            RetriedRecordCopiesTests.record("7", day: 1) + "\n" + RetriedRecordCopiesTests.record("7", day: 4) + "\n")
        let ingest = YoungSpoolReadTests.ingest(on: test, settlingSeconds: test.workspace.settings.settlingSeconds)
        let appended = RetriedRecordCopiesTests.record("g", day: 5) + "\n"
        let summary = try ingest.ingest(try ingest.prepare(path), settled: SettledTransactions()) {
            try LiveSpoolTests.append(appended, to: path)
        }
        #expect(summary.alreadyStored == 1 && summary.stored == 1)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE transaction_id = 'g'") == 0)
        // The purchase, the refund, day 4's copy without it (as RetriedRecordCopiesTests' reference stores).
        #expect(try OverlapSettledCopiesTests.state(test) == (0, 3))

        let next = try test.workspace.ingestReceipts(paths: [path])
        #expect(next.stored == 1 && next.alreadyStored == 0)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE transaction_id = 'g'") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == 4)
    }
}
