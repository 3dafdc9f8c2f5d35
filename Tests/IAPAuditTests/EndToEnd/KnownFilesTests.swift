import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// A daily run finds the whole history in its input folders: files stored before and unchanged since (same path,
/// size, modification time, inode change time and inode) are skipped unread, counted as already ingested; anything else is read as before.
struct KnownFilesTests {
    /// A modification time well past the settling time, in whole seconds so that it is set exactly.
    static let longAgo = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3 * 3600).rounded(.down))

    static func setModified(_ path: String, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// A count from the last run's recorded summary, by its JSON path (`["filesUnchanged"]` for `ingest receipts`,
    /// `["sales", "ingest", "filesUnchanged"]` for `run`).
    static func lastRun(_ test: TestWorkspace, _ path: String...) throws -> Int {
        try test.count(
            "SELECT (summary #>> '{\(path.joined(separator: ","))}')::int FROM pipeline_run ORDER BY id DESC LIMIT 1")
    }

    /// Writes `text` to `name` in `test`'s directory, dated long ago (settled); returns its path.
    static func writeSettled(_ test: TestWorkspace, _ name: String, _ text: String) throws -> String {
        let path = try test.write(name, text)
        try setModified(path, to: longAgo)
        return path
    }

    /// Runs `arguments` through the binary and expects it to succeed saying `summary`, its run record counting
    /// `unchanged` files skipped unread, and (when given) the database to hold that many receipts and input files.
    static func expectRun(
        _ arguments: [String], in test: TestWorkspace, says summary: String, unchanged: Int,
        receipts: Int? = nil, files: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try BinaryUnderTest.run(arguments)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains(summary), "\(result.stdout)", sourceLocation: sourceLocation)
        #expect(try lastRun(test, "filesUnchanged") == unchanged, sourceLocation: sourceLocation)
        if let receipts {
            #expect(try test.count("SELECT count(*) FROM receipt") == receipts, sourceLocation: sourceLocation)
        }
        if let files {
            #expect(try test.count("SELECT count(*) FROM input_file") == files, sourceLocation: sourceLocation)
        }
    }

    @Test func anUnchangedFileIsSkippedUnreadAndCountedAsAlreadyIngested() throws {
        let test = try TestWorkspace()
        let spool = test.directory.appendingPathComponent("spool").path
        let changing = try test.write("spool/a.jsonl", LiveSpoolTests.lines(1...2))
        let other = try test.write("spool/b.jsonl", LiveSpoolTests.lines(3...3))
        try Self.setModified(changing, to: Self.longAgo)
        try Self.setModified(other, to: Self.longAgo)
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, spool]
        let first = try BinaryUnderTest.run(ingest)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("files: 2 seen, 2 ingested, 0 already ingested"), "\(first.stdout)")
        #expect(try test.count("SELECT count(*) FROM known_file") == 2)

        try Self.expectRun(ingest, in: test, says: "files: 2 seen, 0 ingested, 2 already ingested", unchanged: 2)

        // New bytes of the same length under the old modification time (`touch -r`, `rsync -t`): the inode change
        // time moved, which no call sets back, so the file is read and its new records stored (issue 30, item 2).
        try Data(LiveSpoolTests.lines(8...9).utf8).write(to: URL(fileURLWithPath: changing))
        try Self.setModified(changing, to: Self.longAgo)
        let third = try BinaryUnderTest.run(ingest)
        #expect(third.stdout.contains("files: 2 seen, 1 ingested, 1 already ingested"), "\(third.stdout)")
        #expect(third.stdout.contains("records: 2 read, 2 stored"), "\(third.stdout)")
        #expect(try Self.lastRun(test, "filesUnchanged") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == 5)

        // Again: every file read, nothing stored twice.
        try Self.expectRun(
            ingest + ["--rehash"], in: test, says: "files: 2 seen, 0 ingested, 2 already ingested", unchanged: 0)
        #expect(try test.count("SELECT count(*) FROM receipt") == 5)
        #expect(try test.count("SELECT count(*) FROM purchase") == 5)
    }

    @Test func aTouchedFileIsReadAgainAndStoresNothingTwice() throws {
        let test = try TestWorkspace()
        let path = try Self.writeSettled(test, "spool/a.jsonl", LiveSpoolTests.lines(1...3))
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, path]
        #expect(try BinaryUnderTest.run(ingest).status == 0)

        try Self.setModified(path, to: Self.longAgo.addingTimeInterval(1))
        try Self.expectRun(ingest, in: test, says: "1 already ingested", unchanged: 0, receipts: 3, files: 1)

        // Read once under its new time, the file is known again.
        try Self.expectRun(ingest, in: test, says: "1 already ingested", unchanged: 1)
    }

    @Test func anAppendedFileIsReadAgainAndStoresOnlyTheNewRecords() throws {
        let test = try TestWorkspace()
        let path = try Self.writeSettled(test, "spool/today.jsonl", LiveSpoolTests.lines(1...2))
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, path]
        #expect(try BinaryUnderTest.run(ingest).status == 0)

        // Appended a moment ago: read from where the last read ended.
        try LiveSpoolTests.append(LiveSpoolTests.lines(3...3), to: path)
        let grown = try BinaryUnderTest.run(ingest)
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(grown.stdout.contains("records: 1 read, 1 stored"), "\(grown.stdout)")
        #expect(try test.count("SELECT count(*) FROM receipt") == 3)

        // Changed within the settling time, the file is hashed again rather than trusted by its time...
        try Self.expectRun(ingest, in: test, says: "1 already ingested", unchanged: 0)
        // ...and once it has settled, remembered with its new size and time.
        try Self.setModified(path, to: Self.longAgo.addingTimeInterval(60))
        _ = try BinaryUnderTest.run(ingest)
        try Self.expectRun(ingest, in: test, says: "1 already ingested", unchanged: 1)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(try test.count("SELECT size_bytes FROM known_file") == size)

        // Appended again, under a time long past: the size tells.
        try LiveSpoolTests.append(LiveSpoolTests.lines(4...4), to: path)
        try Self.setModified(path, to: Self.longAgo.addingTimeInterval(60))
        let appended = try BinaryUnderTest.run(ingest)
        #expect(appended.stdout.contains("records: 1 read, 1 stored"), "\(appended.stdout)")
        #expect(try test.count("SELECT count(*) FROM receipt") == 4)
    }

    @Test func aFileReadOnlyUpToItsLastCompleteLineIsNotTakenForDone() throws {
        let test = try TestWorkspace()
        let (first, second) = try LiveSpoolTests.ingestHalfWrittenSpoolThenItsRest(test) { () throws in
            #expect(try test.count("SELECT count(*) FROM known_file") == 0)
        }
        #expect(first.stored == 2)
        #expect(second.stored == 1)
        #expect(second.filesUnchanged == 0)
    }

    @Test func onlyAWholeSettledFileUnchangedWhileReadIsRemembered() throws {
        let test = try TestWorkspace()
        let path = try Self.writeSettled(
            test, "spool/today.jsonl", LiveSpoolTests.lines(1...2) + #"{"application_username""#)
        let scan = try FileScan.of(path: path)
        let stat = try #require(scan.completeStat(consumed: scan.whole, settlingSeconds: 60))
        #expect(stat.size == scan.whole.size)
        #expect(stat.modifiedNanoseconds == Int64(Self.longAgo.timeIntervalSince1970) * 1_000_000_000)
        // Up to the last complete line only: a part of the file.
        let complete = try #require(scan.throughLastNewline)
        #expect(scan.completeStat(consumed: complete, settlingSeconds: 60) == nil)
        // Changed within the settling time.
        #expect(scan.completeStat(consumed: scan.whole, settlingSeconds: 4 * 3600) == nil)
        // Grown after its size was taken (the bytes read are more than the size the scan began with).
        var grown = scan
        grown.stat.size -= 1
        #expect(grown.completeStat(consumed: scan.whole, settlingSeconds: 60) == nil)
    }

    @Test func aFileCopiedToANewPathIsReadOnceAndStoresNothingTwice() throws {
        let test = try TestWorkspace()
        let spool = test.directory.appendingPathComponent("spool").path
        _ = try Self.writeSettled(test, "spool/a.jsonl", LiveSpoolTests.lines(1...3))
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, spool]
        #expect(try BinaryUnderTest.run(ingest).status == 0)

        // A rotation's copy keeps the bytes and (cp -p, rename) the modification time, under a path never seen.
        _ = try Self.writeSettled(test, "spool/archive/a-2014-03-02.jsonl", LiveSpoolTests.lines(1...3))
        try Self.expectRun(
            ingest, in: test, says: "files: 2 seen, 0 ingested, 2 already ingested", unchanged: 1, receipts: 3, files: 1
        )

        // Hashed once under its new path, the copy is known too.
        try Self.expectRun(ingest, in: test, says: "2 already ingested", unchanged: 2)
    }

    @Test func runSkipsUnchangedReportsAndRehashReadsThemAll() throws {
        let test = try TestWorkspace()
        let receipts = try test.write("receipts/a.jsonl", LiveSpoolTests.lines(1...2))
        let report = try test.write(
            "reports/S_D_80000001_20140302.txt",
            SalesTestData.header20 + "\n" + SalesTestData.row20(sku: "coins", units: 1, begin: "03/02/2014") + "\n")
        try Self.setModified(receipts, to: Self.longAgo)
        try Self.setModified(report, to: Self.longAgo)
        let run = [
            "run", "--database-url", test.conninfo, "--receipts", receipts, "--sales", report, "--out",
            test.directory.appendingPathComponent("out").path,
        ]
        let first = try BinaryUnderTest.run(run)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try test.count("SELECT count(*) FROM known_file WHERE kind = 'sales'") == 1)

        let second = try BinaryUnderTest.run(run)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("files: 1 seen, 0 ingested, 1 already ingested"), "\(second.stdout)")
        #expect(try Self.lastRun(test, "receipts", "filesUnchanged") == 1)
        #expect(try Self.lastRun(test, "sales", "ingest", "filesUnchanged") == 1)

        let rehashed = try BinaryUnderTest.run(run + ["--rehash"])
        #expect(rehashed.status == 0, "\(rehashed.stderr)")
        #expect(try Self.lastRun(test, "receipts", "filesUnchanged") == 0)
        #expect(try Self.lastRun(test, "sales", "ingest", "filesUnchanged") == 0)
        #expect(try Self.lastRun(test, "sales", "ingest", "filesAlreadyIngested") == 1)
        #expect(try test.count("SELECT count(*) FROM input_file") == 2)

        let sales = try BinaryUnderTest.run(["ingest", "sales", "--database-url", test.conninfo, report])
        #expect(sales.stdout.contains("files: 1 seen, 0 ingested, 1 already ingested"), "\(sales.stdout)")
        #expect(try Self.lastRun(test, "ingest", "filesUnchanged") == 1)
    }
}
