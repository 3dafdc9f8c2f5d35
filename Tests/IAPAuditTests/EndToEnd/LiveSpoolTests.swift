import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// A spool a recorder is still writing: files grow between runs, are read mid-write, are copied and cut. Each record
/// is stored once, whatever happens to the files that carry it.
struct LiveSpoolTests {
    static func record(_ number: Int, status: Int = 0) -> String {
        guard status == 0 else {
            return #"{"application_username": "user\#(number)@example.com", "response": {"status": \#(status)}}"#
        }
        return #"{"application_username": "user\#(number)@example.com", "response": {"status": 0, "#
            + #""environment": "Production", "receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "#
            + #""product_id": "coins", "transaction_id": "\#(5000 + number)", "#
            + #""original_transaction_id": "\#(5000 + number)", "purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}"#
    }

    static func lines(_ numbers: ClosedRange<Int>) -> String {
        numbers.map { record($0) }.joined(separator: "\n") + "\n"
    }

    /// Ingests `spool/today.jsonl` as a recorder leaves it mid-write (two records, then half of a third), runs
    /// `between`, then has the recorder finish the third record and ingests the file again: the scenario the live-spool
    /// and known-file tests each check their own facts of.
    static func ingestHalfWrittenSpoolThenItsRest(
        _ test: TestWorkspace, between: () throws -> Void = {}
    ) throws -> (first: IngestSummary, second: IngestSummary) {
        let third = Array(record(3).utf8)
        let cut = third.count / 2
        let path = try test.write(
            "spool/today.jsonl", lines(1...2) + String(decoding: third.prefix(cut), as: UTF8.self))
        let first = try test.workspace.ingestReceipts(paths: [path])
        try between()
        try append(String(decoding: third.dropFirst(cut), as: UTF8.self) + "\n", to: path)
        return (first, try test.workspace.ingestReceipts(paths: [path]))
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test func aFileThatGrowsBetweenRunsAddsOnlyItsNewRecords() throws {
        let test = try TestWorkspace()
        let spool = test.directory.appendingPathComponent("spool").path
        let path = try test.write("spool/2014-03-02.jsonl", Self.lines(1...2) + Self.record(90, status: 21002) + "\n")
        let ingest = ["ingest", "receipts", "--database-url", test.conninfo, spool]
        let first = try BinaryUnderTest.run(ingest)
        #expect(first.status == 0, "\(first.stderr)")

        try Self.append(Self.lines(3...4) + Self.record(91, status: 21002) + "\n", to: path)
        let second = try BinaryUnderTest.run(ingest)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("records: 3 read, 3 stored"), "\(second.stdout)")
        #expect(try test.count("SELECT count(*) FROM receipt") == 6)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE status = 21002") == 2)
        #expect(try test.count("SELECT count(*) FROM purchase") == 4)
        // The second read starts where the first stopped, and numbers its lines on.
        let pieces = try test.connection.query(
            "SELECT start_offset, start_line, end_line, continues_file_id IS NOT NULL FROM input_file ORDER BY id"
        ).rows
        #expect(pieces.count == 2)
        #expect(pieces.last?[1] == "4" && pieces.last?[2] == "6" && pieces.last?[3] == "t", "\(pieces)")
        #expect(try test.count("SELECT max(line) FROM receipt") == 6)

        let third = try BinaryUnderTest.run(ingest)
        #expect(third.stdout.contains("1 already ingested"), "\(third.stdout)")
        #expect(try test.count("SELECT count(*) FROM receipt") == 6)
    }

    @Test func aHalfWrittenLastLineWaitsForTheNextRunInsteadOfTheQuarantine() throws {
        let test = try TestWorkspace()
        let (first, second) = try Self.ingestHalfWrittenSpoolThenItsRest(test)
        #expect(first.stored == 2)
        #expect(first.quarantined == 0)
        #expect(second.stored == 1)
        #expect(second.quarantined == 0)
        #expect(try test.count("SELECT count(*) FROM receipt") == 3)
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
    }

    @Test func aSettledFileWithABrokenLastLineQuarantinesIt() throws {
        let test = try TestWorkspace()
        let path = try test.write("spool/old.jsonl", Self.lines(1...2) + #"{"application_username": "x@exa"#)
        // Not changed for longer than the settling time: the writer is gone, the line is broken for good.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 2)
        #expect(try test.quarantined() == [.init(line: 3, reason: "invalid-json")])
    }

    @Test func recordsRepeatedAcrossCopiedAndCutFilesAreStoredOnce() throws {
        let test = try TestWorkspace()
        // The same records cut differently (a rotation that copied part of a file), plus a repeat inside one file.
        let paths = [
            try test.write("spool/a.jsonl", Self.lines(1...3)),
            try test.write("spool/b.jsonl", Self.lines(2...5) + Self.record(5) + "\n"),
            try test.write("spool/c.jsonl", Self.lines(1...1)),
        ]
        let summary = try test.workspace.ingestReceipts(paths: paths)
        #expect(summary.records == 9)
        #expect(summary.stored == 5)
        #expect(summary.alreadyStored == 4)
        #expect(try test.count("SELECT count(*) FROM receipt") == 5)
        #expect(try test.count("SELECT count(*) FROM receipt_purchase") == 5)
        #expect(try test.count("SELECT count(*) FROM purchase") == 5)
        #expect(try test.count("SELECT sum(records_already_stored) FROM input_file") == 4)

        // Another account posting the very same receipt is a different record (it may be a replay: keep it).
        let replay = Self.record(1).replacingOccurrences(of: "user1@", with: "mallory@")
        let replayed = try test.workspace.ingestReceipts(paths: [try test.write("spool/d.jsonl", replay + "\n")])
        #expect(replayed.stored == 1)
    }

    @Test func aReportFileWithTheBytesOfAReceiptFileIsStillIngestedAsAReport() throws {
        let test = try TestWorkspace()
        let text = SalesTestData.header20 + "\n"
        let receipts = try test.write("same.jsonl", text)
        let report = try test.write("S_D_80000001_20140302.txt", text)
        _ = try test.workspace.ingestReceipts(paths: [receipts])
        let sales = try test.workspace.ingestSales(paths: [report])
        #expect(sales.ingest.filesAlreadyIngested == 0)
        #expect(try test.count("SELECT count(*) FROM input_file WHERE kind = 'sales'") == 1)
    }
}
