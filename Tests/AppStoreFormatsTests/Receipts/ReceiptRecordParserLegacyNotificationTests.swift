import TestSupport
import Testing

@testable import AppStoreFormats

/// App Store Server Notification V1 bodies from before 2020 (`receipts/notifications-v1-legacy`): their transactions
/// are read, and the shared secret is never kept.
struct ReceiptRecordParserLegacyNotificationTests {
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))

    /// One sample and what it holds.
    struct Sample: Sendable, CustomTestStringConvertible {
        var file: String
        var notificationType: String
        var transactionID: String
        var productID: String
        var isSandbox: Bool
        var testDescription: String { file }
    }

    static let folder = "receipts/notifications-v1-legacy"

    static let samples = [
        // `unified_receipt` holding one `latest_receipt_info` object and no `status`.
        Sample(
            file: "monza-v1-notification-cancel.json", notificationType: "CANCEL", transactionID: "720000240377671",
            productID: "com.PremiumYearly", isSandbox: false),
        Sample(
            file: "monza-v1-notification-did_change_renewal_pref.json", notificationType: "DID_CHANGE_RENEWAL_PREF",
            transactionID: "1000000383196805", productID: "product_id.annual", isSandbox: true),
        Sample(
            file: "monza-v1-notification-initial_buy.json", notificationType: "INITIAL_BUY",
            transactionID: "1000000383185294", productID: "product_id.annual", isSandbox: true),
        Sample(
            file: "monza-v1-notification-interactive_renewal.json", notificationType: "INTERACTIVE_RENEWAL",
            transactionID: "1000000383189797", productID: "product_id.annual", isSandbox: true),
        Sample(
            file: "monza-v1-notification-renewal.json", notificationType: "RENEWAL", transactionID: "1000000383189543",
            productID: "product_id.quarterly", isSandbox: true),
        // No `unified_receipt`: an empty `latest_receipt_info` and one `latest_expired_receipt_info` at the top level.
        Sample(
            file: "laravel-v1-pre-unified-latest_expired_receipt_info.json", notificationType: "INITIAL_BUY",
            transactionID: "1000000577069202", productID: "PRODUCT_ID", isSandbox: true),
    ]

    @Test func everyLegacySampleHasAnExpectation() throws {
        #expect(try TestCorpus.files(in: Self.folder) == Self.samples.map(\.file).sorted())
    }

    @Test(arguments: samples)
    func readsTheTransactionOfABareLegacyBody(_ sample: Sample) throws {
        let receipt = try parser.parse(try TestCorpus.bytes(Self.folder + "/" + sample.file))
        #expect(receipt.shape == .notificationV1)
        #expect(receipt.status == 0)
        #expect(receipt.notificationType == sample.notificationType)
        #expect(receipt.isSandbox == sample.isSandbox)
        #expect(receipt.transactions.map(\.transactionID) == [sample.transactionID])
        #expect(receipt.transactions.map(\.productID) == [sample.productID])
        #expect(receipt.transactions.allSatisfy { $0.source == .latestReceiptInfo && $0.purchaseDate != nil })
        let stored = String(decoding: receipt.storedRecord, as: UTF8.self)
        #expect(!stored.contains("\"password\""))
        #expect(stored.contains(sample.transactionID))
    }

    @Test(arguments: samples)
    func readsTheSameTransactionsWhenTheBodyIsAnEnvelopesResponse(_ sample: Sample) throws {
        let body = try TestCorpus.bytes(Self.folder + "/" + sample.file)
        let bare = try parser.parse(body)
        let record =
            Array(#"{"recorded_at": "2018-03-27T07:11:12Z", "application_username": "player-1", "response": "#.utf8)
            + body + Array("}".utf8)
        let enveloped = try parser.parse(record)
        #expect(enveloped.shape == .envelope)
        #expect(enveloped.accountKey != nil)
        #expect(enveloped.status == bare.status)
        #expect(enveloped.notificationType == bare.notificationType)
        #expect(enveloped.isSandbox == bare.isSandbox)
        #expect(enveloped.transactions == bare.transactions)
        let stored = String(decoding: enveloped.storedRecord, as: UTF8.self)
        #expect(!stored.contains("\"password\""))
        #expect(!stored.contains("player-1"))
        #expect(stored.contains(sample.transactionID))
    }

    @Test func readsTheLaravelBodysPlaceholdersAndEmptyDatesAsAbsentOrVerbatim() throws {
        let receipt = try parser.parse(
            try TestCorpus.bytes(Self.folder + "/laravel-v1-pre-unified-latest_expired_receipt_info.json"))
        let entry = try #require(receipt.transactions.first)
        #expect(entry.originalTransactionID == "1000000577061006")
        #expect(entry.cancellationDate != nil)
        #expect(entry.itemID == "ITEM_ID")
        #expect(receipt.pendingRenewals.count == 1)
        #expect(receipt.pendingRenewals.first?.expirationIntent == nil)
        #expect(receipt.pendingRenewals.first?.gracePeriodExpiresDate == nil)
        #expect(!String(decoding: receipt.storedRecord, as: UTF8.self).contains("TEST_SHARED_SECRET"))
    }

    @Test func stillRefusesAVerifyReceiptAnswerWithoutStatus() throws {
        // Only a notification (`notification_type`) may lack a status; a receipt answer without one is not read.
        #expect(throws: ReceiptRecordError.self) {
            try parser.parse(Array(#"{"latest_receipt_info": {"transaction_id": "1", "product_id": "p"}}"#.utf8))
        }
    }
}
