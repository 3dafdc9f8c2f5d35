import Foundation
import IAPAudit
import Testing

/// Ingest loads a file's rows on one connection while the file before it runs its statements on another
/// (`FileRun`). Files must still be stored in order: a record that repeats one of the file before is stored once.
struct OverlappedFilesTests {
    /// One receipt with one transaction of its own: its bytes are the record's identity.
    static func record(_ number: Int) -> String {
        #"{"application_username": "dana@example.com", "response": {"status": 0, "environment": "Production", "#
            + #""receipt": {"bundle_id": "com.example.game", "in_app": [{"transaction_id": "\#(1000 + number)", "#
            + #""original_transaction_id": "\#(1000 + number)", "product_id": "coins", "quantity": "1", "#
            + #""purchase_date_ms": "\#(1_393_754_400_000 + number * 1000)"}]}}}"#
    }

    /// Small files load in milliseconds, far sooner than the file before them merges: without the order, a file's
    /// duplicate check would run before the earlier file's records were committed, and store them again.
    @Test func aRecordRepeatedInTheNextFileIsStoredOnce() throws {
        let test = try TestWorkspace()
        let files = 24
        for file in 0..<files {
            // File k holds records k and k+1: every record but the first and last is in two consecutive files.
            let lines = [Self.record(file), Self.record(file + 1)]
            try test.write("days/day-\(String(format: "%02d", file)).jsonl", lines.joined(separator: "\n") + "\n")
        }
        let summary = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("days").path])
        #expect(summary.filesIngested == files)
        #expect(summary.alreadyStored == files - 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == files + 1)
        #expect(try test.count("SELECT count(DISTINCT record_key) FROM receipt") == files + 1)
        #expect(try test.count("SELECT count(*) FROM purchase") == files + 1)
        #expect(try test.count("SELECT coalesce(sum(records_already_stored), 0) FROM input_file") == files - 1)
    }

    /// A twin file right after its twin waits for it and is skipped; a file that fails in between is quarantined and
    /// the files after it are still stored in order.
    @Test func twinsAndAFailedFileKeepTheOrder() throws {
        let test = try TestWorkspace()
        let day = [Self.record(1), Self.record(2)].joined(separator: "\n") + "\n"
        try test.write("days/a.jsonl", day)
        try test.write("days/b.jsonl", day)
        // Not gzip past its magic, and old enough not to be a file still being written.
        let broken = try test.write("days/c.jsonl.gz", [0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03])
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: broken)
        try test.write("days/d.jsonl", [Self.record(2), Self.record(3)].joined(separator: "\n") + "\n")
        let summary = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("days").path])
        #expect(summary.filesIngested + summary.filesFailed == 3)
        #expect(summary.filesDeferred == 0)
        #expect(summary.filesAlreadyIngested == 1)
        #expect(summary.alreadyStored == 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == 3)
        #expect(try test.count("SELECT count(*) FROM input_file WHERE kind = 'receipts'") == summary.filesIngested)
    }
}
