import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a real spool holds besides good records — values no index can take, FIFOs, files that cannot be read, UTF-16
/// exports — is quarantined or skipped with its reason, and the rest of the batch runs.
struct HostileInputTests {
    static func receipt(transaction: String, store: String = "store-1", user: String = "alice@example.com") -> String {
        #"{"application_username": "\#(user)", "store_account": "\#(store)", "response": {"status": 0, "#
            + #""environment": "Production", "receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "#
            + #""product_id": "coins", "transaction_id": "\#(transaction)", "original_transaction_id": "\#(transaction)", "#
            + #""purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}"#
    }

    static let salesReport =
        SalesTestData.header20 + "\n"
        + SalesTestData.row20(sku: "coins", type: "IA1", units: 1, begin: "03/02/2014", price: "0.99", parent: "GAME1")
        + "\n"

    /// Runs the binary; a run that hangs is killed after `seconds` and fails the test.
    static func run(_ arguments: [String], seconds: Double = 120) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments, timeout: seconds)
        #expect(!outcome.timedOut, "iap-audit \(arguments.prefix(2).joined(separator: " ")) hung for \(Int(seconds)) s")
        return outcome
    }

    @Test func aValueTooLongForAnIndexIsQuarantinedAndEveryLaterStageRuns() throws {
        let test = try TestWorkspace()
        let longID = String(repeating: "7", count: 3000)
        let longStore = String(repeating: "s", count: 3000)
        try test.write(
            "receipts/a.jsonl",
            [
                Self.receipt(transaction: longID), Self.receipt(transaction: "1001"),
                Self.receipt(transaction: "1002", store: longStore),
            ].joined(separator: "\n") + "\n")
        try test.write("receipts/b.jsonl", Self.receipt(transaction: "1003", user: "bob@example.com") + "\n")
        try test.write("sales/S_D_80000001_20140302.txt", Self.salesReport)
        let out = test.directory.appendingPathComponent("out").path
        let arguments = [
            "run", "--database-url", test.conninfo, "--receipts",
            test.directory.appendingPathComponent("receipts").path,
            "--sales", test.directory.appendingPathComponent("sales").path, "--out", out,
        ]
        let first = try Self.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            try test.quarantined() == [
                .init(line: 1, reason: "value-too-long"), .init(line: 3, reason: "value-too-long"),
            ])
        let messages = try test.connection.query("SELECT message FROM quarantine ORDER BY line").rows.map {
            $0[0] ?? ""
        }
        #expect(messages[0].contains("in_app[0].transaction_id"), "\(messages[0])")
        #expect(messages[1].contains("store_account"), "\(messages[1])")
        #expect(messages.allSatisfy { $0.count < 300 })
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
        #expect(try test.count("SELECT count(*) FROM reconciliation_line") > 0)
        #expect(FileManager.default.fileExists(atPath: out + "/flags.html"))

        // Every later run works too: nothing was left behind that breaks detect or reconcile.
        let second = try Self.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("2 already ingested"), "\(second.stdout)")
    }

    @Test func aCatalogWithAHostileProductIDIsRefusedInOneShortLine() throws {
        let test = try TestWorkspace()
        let catalog = try test.write(
            "catalog.json",
            #"{"apps": [{"bundle_id": "com.example.game"}], "products": [{"product_id": ""#
                + String(repeating: "p", count: 1 << 20) + #"", "bundle_id": "com.example.game"}]}"#)
        let result = try Self.run(["catalog", "import", "--database-url", test.conninfo, catalog])
        #expect(result.status != 70 && result.status != 0)
        #expect(result.stderr.contains("products[0].product_id is 1048576 bytes long"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.utf8.count < 1000)
        #expect(try test.count("SELECT count(*) FROM product") == 0)
    }

    @Test func aFIFOAndAFileThatCannotBeReadDoNotStopTheBatch() throws {
        let test = try TestWorkspace()
        let folder = test.directory.appendingPathComponent("spool")
        try test.write("spool/a.jsonl", Self.receipt(transaction: "2001") + "\n")
        try test.write("spool/c.jsonl", Self.receipt(transaction: "2003") + "\n")
        // A recorder's named pipe: opening it for reading would block until a writer comes, i.e. forever.
        #expect(mkfifo(folder.appendingPathComponent("b-pipe.jsonl").path, 0o644) == 0)
        // A regular file that cannot be read, even by root: reads of /proc/self/mem at offset 0 fail (EIO).
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("b-unreadable.jsonl").path, withDestinationPath: "/proc/self/mem")
        let result = try Self.run(["ingest", "receipts", "--database-url", test.conninfo, folder.path], seconds: 60)
        // Something failed, and the exit code says so; everything readable was stored.
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stdout.contains("1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("1 ignored"), "\(result.stdout)")
        #expect(result.stderr.contains("b-pipe.jsonl") && result.stderr.contains("FIFO"), "\(result.stderr)")
        #expect(try test.count("SELECT count(*) FROM purchase") == 2)
        let failed = try test.connection.query("SELECT path, reason_code FROM quarantine WHERE line = 0").rows
        #expect(failed.count == 1)
        #expect(failed.first?[0]?.hasSuffix("b-unreadable.jsonl") == true)
        #expect(failed.first?[1] == "read-error")

        // A path named on the command line that does not exist is still a usage problem of its own.
        let missing = try Self.run(["ingest", "receipts", "--database-url", test.conninfo, folder.path + "-typo"])
        #expect(missing.status == 66)
    }

    @Test func anEntryTheWalkCannotResolveIsRecordedAndTheRestIsLoaded() throws {
        let test = try TestWorkspace()
        try test.write("spool/a/1.jsonl", Self.receipt(transaction: "3001") + "\n")
        let spool = test.directory.appendingPathComponent("spool")
        // A symbolic-link loop: stat fails with ELOOP, as a folder that vanished or broke mid-walk fails its listing.
        try FileManager.default.createSymbolicLink(
            atPath: spool.appendingPathComponent("b").path, withDestinationPath: spool.appendingPathComponent("b").path)
        let summary = try test.workspace.ingestReceipts(paths: [spool.path])
        #expect(summary.filesIngested == 1)
        #expect(summary.filesFailed == 1)
        #expect(try test.count("SELECT count(*) FROM purchase") == 1)
        let reason = try test.connection.query("SELECT message FROM quarantine WHERE line = 0").string(0, 0) ?? ""
        #expect(reason.contains("symbolic links"), "\(reason)")
    }

    @Test func aUTF16ReportIsRejectedOnceWithAReasonThatSaysSo() throws {
        let test = try TestWorkspace()
        var littleEndian: [UInt8] = [0xFF, 0xFE]
        for unit in Self.salesReport.utf16 { littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        var bigEndian: [UInt8] = []
        for unit in Self.salesReport.utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let paths = [
            try test.write("S_D_80000001_20140302.txt", littleEndian),
            try test.write("S_D_80000001_20140303.txt", bigEndian),
        ]
        let summary = try test.workspace.ingestSales(paths: paths)
        #expect(summary.ingest.quarantined == 2)
        #expect(try test.quarantined() == [.init(line: 1, reason: "utf16-file"), .init(line: 1, reason: "utf16-file")])
        let message = try test.connection.query("SELECT message FROM quarantine LIMIT 1").string(0, 0) ?? ""
        #expect(message.contains("UTF-16"))

        let receipts = try test.write(
            "receipts.jsonl",
            Array((Self.receipt(transaction: "4001") + "\n").utf16).flatMap {
                [UInt8($0 & 0xFF), UInt8($0 >> 8)]
            })
        let ingested = try test.workspace.ingestReceipts(paths: [receipts])
        #expect(ingested.quarantinedByReason == ["utf16-file": 1])
    }
}
