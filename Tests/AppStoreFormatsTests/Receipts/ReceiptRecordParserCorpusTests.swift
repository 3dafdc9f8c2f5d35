import TestSupport
import Testing

@testable import AppStoreFormats

/// Every real verifyReceipt answer and V1 notification in the corpus, and what the parser must make of it.
struct ReceiptRecordParserCorpusTests {
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))

    func parse(_ path: String) throws -> RecordedReceipt {
        try parser.parse(try TestCorpus.bytes(path))
    }

    @Test func readsRevenueCatSandboxAppReceipt() throws {
        let receipt = try parse("receipts/verifyreceipt/revenuecat-sandbox-verifyReceipt-for-app-receipt.json")
        #expect(receipt.shape == .bareResponse)
        #expect(receipt.style == .ios7)
        #expect(receipt.status == 0)
        #expect(receipt.isSandbox)
        #expect(receipt.bundleID == "com.revenuecat.sampleapp")
        #expect(receipt.transactions.filter { $0.source == .inApp }.count == 9)
        #expect(receipt.transactions.filter { $0.source == .latestReceiptInfo }.count == 9)
        #expect(receipt.pendingRenewals.count == 1)
        #expect(receipt.accountKey == nil)
        let first = try #require(receipt.transactions.first)
        #expect(first.transactionID == "1000000692879214")
        #expect(first.originalTransactionID == "1000000692878476")
        #expect(first.purchaseDate == Timestamp(millisecondsSince1970: 1_594_755_400_000))
        #expect(first.webOrderLineItemID == "1000000054042695")
        #expect(first.isTrialPeriod == false)
        #expect(receipt.originalPurchaseDate?.postgresText == "2013-08-01 07:00:00+00")
    }

    @Test func treatsProductionEnvironmentWithSandboxReceiptTypeAsSandbox() throws {
        let receipt = try parse("receipts/verifyreceipt/imdhemy-ios7-autorenew-sandbox-renewals.json")
        #expect(receipt.environment == "Production")
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(receipt.isSandbox)
        #expect(receipt.transactionEnvironment == "Sandbox")
        #expect(receipt.transactions.count == 43)
        #expect(Set(receipt.transactions.map(\.originalTransactionID)).count == 1)
    }

    @Test func readsVeniceProductionReceiptWithPendingRenewal() throws {
        let receipt = try parse("receipts/verifyreceipt/venice-ios7-production-pending_renewal_info.json")
        #expect(!receipt.isSandbox)
        #expect(receipt.adamID == "7654321")
        #expect(receipt.transactions.count == 1)
        #expect(receipt.transactions[0].expiresDate?.postgresText == "2014-06-28 14:47:53+00")
        let renewal = try #require(receipt.pendingRenewals.first)
        #expect(renewal.autoRenewStatus == false)
        #expect(renewal.expirationIntent == 1)
        #expect(renewal.isInBillingRetryPeriod == false)
    }

    @Test func readsIOS6ExpiredSubscriptionWithMillisecondExpiry() throws {
        let receipt = try parse("receipts/verifyreceipt/venice-ios6-status21006-latest_expired_receipt_info.json")
        #expect(receipt.status == 21006)
        #expect(receipt.style == .ios6)
        #expect(receipt.bundleID == "com.foo.bar")
        #expect(receipt.appItemID == "1387514950")
        #expect(!receipt.isSandbox)
        #expect(receipt.transactions.map(\.source) == [.receipt, .latestReceiptInfo])
        let transaction = receipt.transactions[0]
        #expect(transaction.expiresDate == Timestamp(millisecondsSince1970: 1_550_386_188_000))
        #expect(transaction.isTrialPeriod == true)
        #expect(transaction.itemID == "1450637621")
    }

    @Test func acceptsNumbersAndBooleansWhereAppleSendsStrings() throws {
        let receipt = try parse("receipts/verifyreceipt/aporat-ios7-numeric-typed.json")
        #expect(receipt.isSandbox)
        #expect(receipt.transactions.count == 4)
        let latest = receipt.transactions.filter { $0.source == .latestReceiptInfo }
        #expect(latest[0].transactionID == "1000000104232856")
        #expect(latest[0].isTrialPeriod == false)
        #expect(latest[1].purchaseDate == Timestamp(millisecondsSince1970: 1_396_071_456_569))
        #expect(receipt.appItemID == "11202513425662")
    }

    @Test func storesErrorStatusesWithoutTransactions() throws {
        let invalid = try parse("receipts/verifyreceipt/aporat-status-21002.json")
        #expect(invalid.status == 21002)
        #expect(invalid.transactions.isEmpty)
        #expect(invalid.style == .none)
        let deleted = try parse("receipts/verifyreceipt/issue-status21010-is_retryable-production.json")
        #expect(deleted.status == 21010)
        #expect(deleted.isRetryable == false)
        #expect(!deleted.isSandbox)
    }

    @Test func readsV1NotificationsAndDropsTheSharedSecret() throws {
        let renew = try parse("receipts/notifications-v1/aporat-v1-notification-did_renew.json")
        #expect(renew.shape == .notificationV1)
        #expect(renew.notificationType == "DID_RENEW")
        #expect(renew.bundleID == "my.app")
        #expect(renew.transactions.count == 1)
        #expect(renew.transactions[0].inAppOwnershipType == "PURCHASED")
        #expect(renew.pendingRenewals.count == 1)
        let stored = String(decoding: renew.storedRecord, as: UTF8.self)
        #expect(!stored.contains("dummy_shared_secret"))
        #expect(!stored.contains("\"password\""))
        #expect(stored.contains("\"unified_receipt\""))

        let unified = try parse("receipts/notifications-v1/imdhemy-v1-notification-unified_receipt.json")
        #expect(unified.transactions.count == 54)
        #expect(unified.transactions.contains { $0.isUpgraded == true })
        #expect(unified.bundleID == "com.some.thing")
    }

    @Test func readsEveryCorpusReceiptFile() throws {
        for folder in ["receipts/verifyreceipt", "receipts/notifications-v1"] {
            for name in try TestCorpus.files(in: folder) {
                let receipt = try parse("\(folder)/\(name)")
                #expect(!receipt.storedRecord.isEmpty, "\(name)")
            }
        }
    }
}
