import AppStoreFormats
import Foundation
import TestSupport
import Testing

/// The StoreKit 2 shapes `ReceiptRecordParser` reads (docs/inputs.md, "Signed data"), over the real signed samples of
/// `Tests/Fixtures/corpus/receipts/jws/` and JWS built here from decoded real payloads.
struct SignedRecordParserTests {
    let parser = ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil))

    /// Why `record` is quarantined, or nil when it parses.
    private func reason(_ record: String) -> QuarantineReason? {
        do {
            _ = try parser.parse(Array(record.utf8))
            return nil
        } catch {
            return error.code
        }
    }

    private func sample(_ name: String) throws -> String {
        String(decoding: try TestCorpus.bytes("receipts/jws/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An unsigned JWS (a parser does not verify) around `payload`, with Apple's header shape.
    private func jws(_ payload: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"ES256","x5c":["AA","AA","AA"]}"#) + "." + encode(payload) + ".c2ln"
    }

    private func transactionPayload(id: String, extra: String = "") -> String {
        """
        {"transactionId":"\(id)","originalTransactionId":"1000","productId":"com.example.pro","quantity":1,\
        "purchaseDate":1698148900000,"originalPurchaseDate":1698148800000,"expiresDate":1698149000000.5,\
        "type":"Auto-Renewable Subscription","environment":"Production","signedDate":1698148900000,\
        "price":10990,"currency":"USD","storefront":"USA","appTransactionId":"71134"\(extra)}
        """
    }

    @Test func aLineThatIsAJWSIsOneSignedTransaction() throws {
        let receipt = try parser.parse(Array(jws(transactionPayload(id: "2001")).utf8))
        #expect(receipt.shape == .signed)
        #expect(receipt.style == .signed)
        #expect(receipt.accountKey == nil)
        let entry = try #require(receipt.transactions.first)
        #expect(receipt.transactions.count == 1)
        #expect(entry.source == .signed)
        #expect(entry.transactionID == "2001")
        #expect(entry.originalTransactionID == "1000")
        #expect(entry.purchaseDate == Timestamp(millisecondsSince1970: 1_698_148_900_000))
        #expect(entry.expiresDate == Timestamp(millisecondsSince1970: 1_698_149_000_000))
        #expect(entry.signed?.price == 10990)
        #expect(entry.signed?.currency == "USD")
        #expect(entry.signed?.appTransactionID == "71134")
        #expect(receipt.environment(of: entry) == "Production")
        #expect(receipt.signedObjects.map(\.kind) == [.transaction])
        #expect(!receipt.isSandbox)
    }

    @Test func aJWSWrittenAsAJSONStringIsTheSameRecord() throws {
        let text = jws(transactionPayload(id: "2001"))
        let bare = try parser.parse(Array(text.utf8))
        let quoted = try parser.parse(Array("\"\(text)\"\n".utf8))
        #expect(quoted.transactions == bare.transactions)
        #expect(quoted.storedRecord == bare.storedRecord)
        #expect(
            try JSONSerialization.jsonObject(with: Data(bare.storedRecord), options: .fragmentsAllowed) as? String
                == text)
    }

    @Test func anEnvelopeCarriesTheAccountAndEverySignedMember() throws {
        let record = """
            {"recorded_at":"2025-03-01T10:00:00Z","application_username":"alice@example.com",\
            "signed_transactions":["\(jws(transactionPayload(id: "1")))","\(jws(transactionPayload(id: "2")))"],\
            "signed_renewal_info":"\(jws(#"{"originalTransactionId":"1000","autoRenewProductId":"com.example.pro","autoRenewStatus":1,"environment":"Production","signedDate":1698148900000}"#))"}
            """
        let receipt = try parser.parse(Array(record.utf8))
        #expect(receipt.shape == .envelope)
        #expect(receipt.accountKey == AccountKeyHasher(pepper: nil).key(forUsername: "alice@example.com"))
        #expect(receipt.transactions.map(\.transactionID) == ["1", "2"])
        #expect(receipt.transactions.map(\.ordinal) == [0, 1])
        #expect(receipt.pendingRenewals.first?.autoRenewStatus == true)
        #expect(receipt.signedObjects.map(\.kind) == [.transaction, .transaction, .renewalInfo])
        #expect(
            receipt.signedObjects.map(\.path) == [
                "signed_transactions[0]", "signed_transactions[1]",
                "signed_renewal_info",
            ])
        #expect(!String(decoding: receipt.storedRecord, as: UTF8.self).contains("alice"))
    }

    @Test func aRealV2NotificationIsANotificationWithItsUUID() throws {
        let receipt = try parser.parse(Array(try sample("imdhemy-real-v2-test-notification.json").utf8))
        #expect(receipt.shape == .notificationV2)
        let notification = try #require(receipt.signedObjects.first)
        #expect(notification.kind == .notification)
        #expect(notification.notificationType == "TEST")
        #expect(notification.notificationUUID == "5e09dcfc-205e-4ea1-9883-96676f394992")
        #expect(notification.environment == "Sandbox")
        #expect(receipt.bundleID == "com.Abilities")
        #expect(receipt.isSandbox)
    }

    @Test func aNotificationsTransactionAndRenewalInfoAreObjectsOfTheirOwn() throws {
        let inner = jws(transactionPayload(id: "77"))
        let notification = jws(
            #"{"notificationType":"DID_RENEW","notificationUUID":"u-1","signedDate":1698148900000,"data":{"bundleId":"com.example","environment":"Production","signedTransactionInfo":"\#(inner)"}}"#
        )
        let receipt = try parser.parse(Array(#"{"signedPayload":"\#(notification)"}"#.utf8))
        #expect(receipt.signedObjects.map(\.kind) == [.notification, .transaction])
        #expect(receipt.signedObjects.last?.path == "signedPayload.payload.data.signedTransactionInfo")
        #expect(receipt.transactions.map(\.transactionID) == ["77"])
        #expect(receipt.notificationType == "DID_RENEW")
    }

    @Test(arguments: [
        #"{"signedTransactions":["T"],"revision":"r","hasMore":false,"environment":"Production"}"#,
        #"{"response":{"signedTransactions":["T"],"revision":"r","hasMore":true}}"#,
        #"{"environment":"Production","data":[{"subscriptionGroupIdentifier":"g","lastTransactions":[{"originalTransactionId":"1000","status":1,"signedTransactionInfo":"T"}]}]}"#,
        #"{"signedTransactionInfo":"T"}"#,
    ])
    func serverAPIResponsesYieldTheirTransactions(_ template: String) throws {
        let record = template.replacingOccurrences(of: "\"T\"", with: "\"\(jws(transactionPayload(id: "9")))\"")
        let receipt = try parser.parse(Array(record.utf8))
        #expect(receipt.style == .signed)
        #expect(receipt.shape == (template.hasPrefix(#"{"response""#) ? .envelope : .serverAPI))
        #expect(receipt.transactions.map(\.transactionID) == ["9"])
    }

    @Test func notificationHistoryYieldsEachNotification() throws {
        let one = jws(#"{"notificationType":"TEST","notificationUUID":"a","signedDate":1}"#)
        let two = jws(#"{"notificationType":"TEST","notificationUUID":"b","signedDate":2}"#)
        let record = """
            {"notificationHistory":[{"signedPayload":"\(one)","sendAttemptResults":[]},\
            {"signedPayload":"\(two)","sendAttemptResults":[{"attemptDate":1,"sendAttemptResult":"SUCCESS"}]}],\
            "hasMore":false}
            """
        let receipt = try parser.parse(Array(record.utf8))
        #expect(receipt.signedObjects.compactMap(\.notificationUUID) == ["a", "b"])
    }

    @Test func xcodeDatesWithFractionsAreCutToTheMillisecond() throws {
        let receipt = try parser.parse(Array(try sample("xcode-signed-transaction.jws").utf8))
        let entry = try #require(receipt.transactions.first)
        #expect(entry.purchaseDate == Timestamp(millisecondsSince1970: 1_697_679_936_049))
        #expect(entry.signed?.environment == "Xcode")
        #expect(receipt.isSandbox)
    }

    @Test func aRealRenewalInfoIsAPendingRenewal() throws {
        let receipt = try parser.parse(Array(try sample("goiap-real-sandbox-renewalinfo.jws").utf8))
        let renewal = try #require(receipt.pendingRenewals.first)
        #expect(renewal.originalTransactionID == "2000000335310644")
        #expect(renewal.autoRenewStatus == true)
        #expect(receipt.signedObjects.map(\.kind) == [.renewalInfo])
    }

    @Test func refundsAreRevocationsButAFamilyRevokeIsNot() throws {
        let refund = try parser.parse(
            Array(
                jws(
                    transactionPayload(
                        id: "5",
                        extra:
                            #","revocationDate":1698149950000,"revocationReason":1,"revocationType":"REFUND_PRORATED","revocationPercentage":50000"#
                    )
                ).utf8))
        #expect(refund.transactions.first?.cancellationDate == Timestamp(millisecondsSince1970: 1_698_149_950_000))
        #expect(refund.transactions.first?.signed?.revocationPercentage == 50000)
        let familyRevoke = try parser.parse(
            Array(
                jws(
                    transactionPayload(
                        id: "6",
                        extra:
                            #","revocationDate":1698149950000,"revocationType":"FAMILY_REVOKE","inAppOwnershipType":"FAMILY_SHARED""#
                    )
                ).utf8))
        #expect(familyRevoke.transactions.first?.cancellationDate == nil)
        #expect(familyRevoke.transactions.first?.signed?.revocationDate != nil)
    }

    @Test func aFreeTrialIsATrialAndAPaidIntroductoryOfferIsNot() throws {
        let trial = try parser.parse(
            Array(jws(transactionPayload(id: "7", extra: #","offerType":1,"offerDiscountType":"FREE_TRIAL""#)).utf8))
        #expect(trial.transactions.first?.isTrialPeriod == true)
        #expect(trial.transactions.first?.isInIntroOfferPeriod == false)
        let intro = try parser.parse(
            Array(jws(transactionPayload(id: "8", extra: #","offerType":1,"offerDiscountType":"PAY_AS_YOU_GO""#)).utf8))
        #expect(intro.transactions.first?.isTrialPeriod == false)
        #expect(intro.transactions.first?.isInIntroOfferPeriod == true)
    }

    @Test(arguments: [
        "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9",  // two parts
        "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln.x",  // four parts
        #"{"signed_transaction":"not a jws"}"#,
        #"{"signedTransactions":["eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln=="]}"#,  // padding
    ])
    func whatIsNotAJWSIsInvalidJWS(_ record: String) throws {
        #expect(reason(record) == .invalidJWS)
    }

    /// A JWS is judged alike wherever it sits: a `signedDate` that is not epoch milliseconds is `wrong-type` or
    /// `invalid-date` as a line of its own, in an envelope, in an API page and inside a notification.
    @Test(arguments: [
        (#""1698148900000""#, QuarantineReason.wrongType), ("1.6e12", QuarantineReason.invalidDate),
    ])
    func aBadSignedDateHasOneReasonInEveryShape(_ signedDate: String, _ expected: QuarantineReason) throws {
        let transaction = jws(#"{"transactionId":"5","signedDate":\#(signedDate)}"#)
        let notification = jws(
            #"{"notificationType":"REFUND","signedDate":1698148900000,"data":{"signedTransactionInfo":"\#(transaction)"}}"#
        )
        let shapes = [
            transaction,
            #""\#(transaction)""#,
            #"{"signed_transaction":"\#(transaction)"}"#,
            #"{"signedTransactions":["\#(transaction)"],"hasMore":false}"#,
            #"{"signedPayload":"\#(notification)"}"#,
        ]
        for shape in shapes {
            #expect(reason(shape) == expected, "\(shape.prefix(40))")
        }
    }

    @Test func aSignedTransactionWithoutATransactionIDIsInvalidJWS() throws {
        let record = #"{"signed_transaction":"\#(jws(#"{"productId":"p","signedDate":1}"#))"}"#
        #expect(reason(record) == .invalidJWS)
    }
}
