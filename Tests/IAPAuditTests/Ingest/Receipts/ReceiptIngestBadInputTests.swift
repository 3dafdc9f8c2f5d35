import AppStoreFormats
import Foundation
import Gzip
import IAPAudit
import Postgres
import Testing

/// Every kind of bad input: quarantined with file, line and reason; the good records around it still stored.
struct ReceiptIngestBadInputTests {
    static let good1 =
        #"{"application_username": "alice@example.com", "response": {"status": 0, "receipt": {"bid": "com.example.game", "product_id": "coins", "transaction_id": "1001", "purchase_date_ms": "1393754400000"}}}"#
    static let good2 =
        #"{"application_username": "bob@example.com", "response": {"status": 0, "receipt": {"bid": "com.example.game", "product_id": "coins", "transaction_id": "1002", "purchase_date_ms": "1393754500000"}}}"#

    typealias Quarantined = TestWorkspace.Quarantined

    @Test func quarantinesBadLinesAndStoresTheGoodOnes() throws {
        let test = try TestWorkspace()
        let lines = [
            Self.good1,
            #"{"response": {"status": 0"#,  // cut short
            "",  // blank lines are not records
            #"{"response": {"status": 0, "receipt": {"bundle_id": "a", "in_app": "nope"}}}"#,
            #"{"recorded_at": "2014-03-02T10:11:12Z"}"#,
            #"{"response": {"status": 0, "receipt": {"bid": "a", "product_id": "p", "transaction_id": "9", "purchase_date": "2014-13-45 07:00:00 Etc/GMT"}}}"#,
            #"{"response": {"status": 3000000000}}"#,  // no integer column holds it
            Self.good2,
        ]
        var bytes = Array(lines.joined(separator: "\n").utf8)
        bytes += Array("\n".utf8) + [0xFF, 0xFE, 0x7B, 0x00] + Array("\n".utf8)  // binary garbage, line 9
        let path = try test.write("day.jsonl", bytes)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 2)
        #expect(summary.quarantined == 6)
        #expect(
            try test.quarantined() == [
                Quarantined(line: 2, reason: "invalid-json"), Quarantined(line: 4, reason: "wrong-type"),
                Quarantined(line: 5, reason: "missing-response"), Quarantined(line: 6, reason: "invalid-date"),
                Quarantined(line: 7, reason: "invalid-number"), Quarantined(line: 9, reason: "invalid-json"),
            ])
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
        let path2 = try test.connection.query("SELECT DISTINCT path FROM quarantine").string(0, 0)
        #expect(path2 == path)
    }

    @Test func storesTheRecordsBeforeATruncatedGzipAndQuarantinesTheBreak() throws {
        let test = try TestWorkspace()
        let plain = Array(
            ([Self.good1, Self.good2] + Array(repeating: Self.good1, count: 200)).joined(separator: "\n").utf8)
        let compressed = GzipWriter.compress(plain)
        let path = try test.write("cut.jsonl.gz", Array(compressed.prefix(compressed.count * 2 / 3)))
        // Unchanged for an hour: no writer will finish it, it is broken for good.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored >= 2)
        #expect(try test.quarantined().last?.reason == "truncated-gzip")
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
    }

    @Test func leavesAYoungTruncatedGzipForTheNextRun() throws {
        let test = try TestWorkspace()
        let plain = Array(([Self.good1, Self.good2]).joined(separator: "\n").utf8)
        let compressed = GzipWriter.compress(plain)
        // Just written, and its end missing: a writer that is not done yet.
        let path = try test.write("today.jsonl.gz", Array(compressed.prefix(compressed.count - 4)))
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.filesDeferred == 1)
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(try test.count("SELECT count(*) FROM input_file") == 0)
        try test.write("today.jsonl.gz", compressed)
        #expect(try test.workspace.ingestReceipts(paths: [path]).stored == 2)
    }

    @Test func quarantinesACorruptGzip() throws {
        let test = try TestWorkspace()
        var compressed = GzipWriter.compress(Array(([Self.good1, Self.good2]).joined(separator: "\n").utf8))
        compressed[compressed.count - 6] ^= 0xFF  // break the CRC
        let path = try test.write("bad.jsonl.gz", compressed)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.quarantined == 1)
        #expect(try test.quarantined().map(\.reason) == ["corrupt-gzip"])
    }

    @Test func quarantinesAnEmptyFileOnceItHasSettled() throws {
        let test = try TestWorkspace()
        let path = try test.write("empty.jsonl", [])
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.quarantined == 1)
        #expect(try test.quarantined() == [Quarantined(line: 0, reason: "empty-file")])
    }

    @Test func leavesAJustCreatedEmptyFileForItsFirstRecord() throws {
        let test = try TestWorkspace()
        // A recorder opens today's file some time before it writes the first line.
        let path = try test.write("today.jsonl", [])
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.filesDeferred == 1)
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(try test.count("SELECT count(*) FROM input_file") == 0)
        try test.write("today.jsonl", Array(([Self.good1, Self.good2]).joined(separator: "\n").utf8))
        #expect(try test.workspace.ingestReceipts(paths: [path]).stored == 2)
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
    }

    @Test func skipsAHundredMegabyteLineWithoutHoldingIt() throws {
        let test = try TestWorkspace()
        let huge =
            Array(#"{"response": {"status": 0, "x": ""#.utf8) + Array(repeating: UInt8(ascii: "a"), count: 100 << 20)
            + Array(#""}}"#.utf8)
        let plain = Array(Self.good1.utf8) + [0x0A] + huge + [0x0A] + Array(Self.good2.utf8)
        let path = try test.write("huge.jsonl.gz", GzipWriter.compress(plain))
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 2)
        #expect(try test.quarantined() == [Quarantined(line: 2, reason: "record-too-long")])
    }

    @Test func readsJSONArraysAndQuarantinesTheirBrokenElements() throws {
        let test = try TestWorkspace()
        let document = "[\n\(Self.good1),\n{\"response\": 7},\n\(Self.good2)\n]\n"
        let path = try test.write("batch.json", document)
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 2)
        #expect(try test.quarantined() == [Quarantined(line: 3, reason: "wrong-type")])
    }

    @Test func strictModeMarksTheRunRejected() throws {
        let test = try TestWorkspace(strict: true)
        let path = try test.write("one-bad.jsonl", Self.good1 + "\n{not json}\n")
        _ = try test.workspace.ingestReceipts(paths: [path])
        let run = try test.connection.query("SELECT outcome, exit_code FROM pipeline_run ORDER BY id DESC LIMIT 1")
        #expect(run.string(0, 0) == "rejected")
        #expect(run.int(0, 1) == 65)
    }

    @Test func recordsConflictingCopiesAndLaterRefunds() throws {
        let test = try TestWorkspace()
        let conflicting = Self.good1.replacingOccurrences(of: "\"coins\"", with: "\"gems\"")
        let refunded = Self.good2.replacingOccurrences(
            of: "\"purchase_date_ms\"",
            with: "\"cancellation_date_ms\": \"1393840800000\", \"cancellation_reason\": \"0\", \"purchase_date_ms\"")
        try test.write("a/1.jsonl", Self.good1 + "\n" + Self.good2 + "\n")
        try test.write("a/2.jsonl", conflicting + "\n" + refunded + "\n")
        _ = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("a").path])
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE product_id = 'coins'") == 2)
        #expect(try test.count("SELECT count(*) FROM purchase_conflict WHERE product_id = 'gems'") == 1)
        #expect(
            try test.count(
                "SELECT count(*) FROM purchase WHERE transaction_id = '1002' AND cancellation_date IS NOT NULL")
                == 1)
        #expect(try test.count("SELECT count(*) FROM receipt_purchase") == 4)
    }

    /// A subscription's `in_app` copy may lack the expiry its `latest_receipt_info` copy carries, in one response
    /// or in a later one; the stored transaction gets it either way (and a conflicting copy never gives one).
    @Test func takesAnExpiryOnlyALaterCopyCarries() throws {
        let test = try TestWorkspace()
        func entry(_ id: String, product: String = "monthly", expires: String? = nil) -> String {
            let expiry = expires.map { #", "expires_date_ms": "\#($0)""# } ?? ""
            let purchase = #""purchase_date_ms": "1393754400000""#
            return #"{"product_id": "\#(product)", "transaction_id": "\#(id)", \#(purchase)\#(expiry)}"#
        }
        func record(inApp: [String], latest: [String]) -> String {
            let inApp = inApp.joined(separator: ", "), latest = latest.joined(separator: ", ")
            let receipt = #"{"bundle_id": "com.example.game", "in_app": [\#(inApp)]}"#
            return #"{"response": {"status": 0, "receipt": \#(receipt), "latest_receipt_info": [\#(latest)]}}"#
        }
        let withinOneResponse = record(inApp: [entry("2001")], latest: [entry("2001", expires: "1396346400000")])
        let laterResponse = record(inApp: [entry("2002"), entry("2003")], latest: [])
        let laterWithExpiry = record(
            inApp: [entry("2002", product: "yearly", expires: "1425290400000")],
            latest: [entry("2002", expires: "1396346400000"), entry("2003", expires: "1396346400001")])
        try test.write("a/1.jsonl", withinOneResponse + "\n" + laterResponse + "\n")
        try test.write("a/2.jsonl", laterWithExpiry + "\n")
        _ = try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("a").path])
        let expiries = try test.connection.query(
            "SELECT transaction_id, (extract(epoch FROM expires_date) * 1000)::bigint FROM purchase ORDER BY 1")
        #expect((0..<expiries.rowCount).map { expiries.string($0, 0) ?? "" } == ["2001", "2002", "2003"])
        #expect(
            (0..<expiries.rowCount).map { expiries.string($0, 1) }
                == ["1396346400000", "1396346400000", "1396346400001"])
        #expect(try test.count("SELECT count(*) FROM purchase_conflict WHERE product_id = 'yearly'") == 1)
    }

    @Test func refusesAMissingPath() throws {
        let test = try TestWorkspace()
        #expect(throws: IAPAuditError.self) {
            try test.workspace.ingestReceipts(paths: [test.directory.appendingPathComponent("nope").path])
        }
    }
}
