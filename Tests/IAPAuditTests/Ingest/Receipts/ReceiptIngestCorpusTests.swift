import Foundation
import IAPAudit
import Testing

/// The real receipts in ../shared/corpus go in whole: nothing quarantined, every transaction stored once.
@Suite(.serialized) struct ReceiptIngestCorpusTests {
    static var corpusReceipts: URL {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.deletingLastPathComponent().appendingPathComponent("shared/corpus/receipts")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/work/shared/corpus/receipts")
    }

    @Test func storesEveryCorpusReceiptWithItsTransactions() throws {
        let test = try TestWorkspace()
        let paths = ["verifyreceipt", "notifications-v1"].map { Self.corpusReceipts.appendingPathComponent($0).path }
        let summary = try test.workspace.ingestReceipts(paths: paths)
        #expect(summary.filesIngested == 9)
        #expect(summary.records == 9)
        #expect(summary.stored == 9)
        #expect(summary.quarantined == 0)
        // in_app + latest_receipt_info + iOS 6 objects, counted by hand from the files (see the parser tests).
        #expect(summary.transactionEntries == 1 + 54 + 4 + 0 + 43 + 0 + 18 + 2 + 1)
        #expect(try test.count("SELECT count(*) FROM receipt") == 9)
        #expect(try test.count("SELECT count(*) FROM receipt_purchase") == summary.transactionEntries)
        // Distinct (environment, transaction id): the revenuecat in_app and latest lists repeat 9 transactions,
        // the iOS 6 receipt and its latest_expired_receipt_info are the same transaction.
        #expect(try test.count("SELECT count(*) FROM purchase") == 1 + 54 + 4 + 43 + 9 + 1 + 1)
        #expect(try test.count("SELECT count(*) FROM purchase_conflict") == 0)
        #expect(try test.count("SELECT count(*) FROM pending_renewal") == 6)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE status = 21002") == 1)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE is_upgraded") > 0)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE raw LIKE '%dummy_shared_secret%'") == 0)
        #expect(
            try test.count("SELECT count(*) FROM purchase WHERE environment = 'Sandbox'") == 4 + 43 + 9)
    }

    @Test func reingestingTheSameDirectoryChangesNothing() throws {
        let test = try TestWorkspace()
        let paths = ["verifyreceipt", "notifications-v1"].map { Self.corpusReceipts.appendingPathComponent($0).path }
        _ = try test.workspace.ingestReceipts(paths: paths)
        let before = try test.canonicalContents()
        let again = try test.workspace.ingestReceipts(paths: paths)
        #expect(again.filesIngested == 0)
        #expect(again.filesAlreadyIngested == 9)
        #expect(try test.canonicalContents() == before)
    }
}
