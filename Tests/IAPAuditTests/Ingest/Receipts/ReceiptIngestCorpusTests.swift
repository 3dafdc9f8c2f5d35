import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// The real receipts in Tests/Fixtures/corpus go in whole: nothing quarantined, every transaction stored once.
@Suite(.serialized) struct ReceiptIngestCorpusTests {
    static var corpusReceipts: URL { TestCorpus.url("receipts") }

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

    /// Pre-2020 V1 notification bodies, one transaction each (see the parser's legacy-notification tests).
    static let legacyTransactions = [
        "1000000383185294", "1000000383189543", "1000000383189797", "1000000383196805", "1000000577069202",
        "720000240377671",
    ]

    @Test func storesTheTransactionsOfPre2020NotificationBodies() throws {
        let test = try TestWorkspace()
        let path = Self.corpusReceipts.appendingPathComponent("notifications-v1-legacy").path
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.filesIngested == 6)
        #expect(summary.stored == 6)
        #expect(summary.quarantined == 0)
        #expect(summary.transactionEntries == 6)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE shape = 'notification-v1' AND status = 0") == 6)
        let stored = try test.connection.query("SELECT transaction_id FROM purchase ORDER BY transaction_id").rows
        #expect(stored.map { $0[0] ?? "" } == Self.legacyTransactions)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE environment = 'Sandbox'") == 5)
        #expect(try test.count("SELECT count(*) FROM pending_renewal") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE raw LIKE '%\"password\"%'") == 0)
    }

    @Test func storesTheSameTransactionsWhenTheBodiesAreEnvelopeResponses() throws {
        let test = try TestWorkspace()
        let folder = "receipts/notifications-v1-legacy"
        var records: [String] = []
        for name in try TestCorpus.files(in: folder) {
            let body = String(decoding: try TestCorpus.bytes(folder + "/" + name), as: UTF8.self)
            records.append(
                #"{"recorded_at": "2018-03-27T07:11:12Z", "application_username": "u1", "response": "#
                    + body + "}")
        }
        let path = try test.write("enveloped.json", "[" + records.joined(separator: ",\n") + "]")
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 6)
        #expect(summary.quarantined == 0)
        #expect(summary.transactionEntries == 6)
        #expect(
            try test.count("SELECT count(*) FROM receipt WHERE shape = 'envelope' AND account_key IS NOT NULL") == 6)
        let stored = try test.connection.query("SELECT transaction_id FROM purchase ORDER BY transaction_id").rows
        #expect(stored.map { $0[0] ?? "" } == Self.legacyTransactions)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE raw LIKE '%\"password\"%'") == 0)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE notification_type IS NOT NULL") == 6)
    }
}
