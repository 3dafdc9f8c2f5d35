import Foundation
import TestSupport
import Testing

@testable import IAPAudit

/// A spool a recorder is still writing is read through the bytes its scan saw: what the recorder appends between the
/// scan and the read, maybe half a line, waits for the next run instead of being quarantined.
struct YoungSpoolReadTests {
    @Test func aHalfLineAppendedAfterTheScanWaitsForTheNextRun() throws {
        let test = try TestWorkspace()
        let path = try test.write(
            "today/spool.jsonl",
            RetriedRecordCopiesTests.record("a", day: 1) + "\n" + RetriedRecordCopiesTests.record("b", day: 2) + "\n")
        let ingest = Self.ingest(on: test, settlingSeconds: 3600)  // the file was just written: young
        let third = RetriedRecordCopiesTests.record("c", day: 3)
        let half = third.prefix(third.count / 2)

        guard case .read(let plan) = try ingest.plan(path) else {
            Issue.record("a young file whose records are complete is read")
            return
        }
        try LiveSpoolTests.append(String(half), to: path)
        let summary = try ingest.ingest(try ingest.startParsing(plan), settled: SettledTransactions())
        #expect(summary.quarantined == 0, "the half line the recorder was writing is no broken record")
        #expect(summary.stored == 2)
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)

        try LiveSpoolTests.append(String(third.dropFirst(half.count)) + "\n", to: path)
        let next = try ingest.ingest(paths: [path])
        #expect(next.stored == 1 && next.alreadyStored == 0 && next.quarantined == 0)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE transaction_id = 'c'") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == 3)
    }

    /// The loader `run` would use on `test`'s database, called step by step by these tests.
    static func ingest(on test: TestWorkspace, settlingSeconds: Double) -> ReceiptIngest {
        var ingest = ReceiptIngest(
            connection: test.connection, hasher: test.workspace.settings.hasher, runID: nil,
            logger: TestPostgres.logger)
        ingest.settlingSeconds = settlingSeconds
        return ingest
    }
}
