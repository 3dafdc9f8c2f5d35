/// One JWS found in a record: what it is, where it was, and the parsed JWS a verifier judges.
package struct SignedObject: Sendable {
    /// What the payload is.
    package enum Kind: String, Sendable, CaseIterable {
        /// JWSTransactionDecodedPayload: a purchase, renewal, refund…
        case transaction
        /// JWSRenewalInfoDecodedPayload: what a subscription will do next.
        case renewalInfo = "renewal-info"
        /// An App Store Server Notification V2 payload (its transaction and renewal info are objects of their own).
        case notification
        /// AppTransaction: the app's purchase by one App Store account.
        case appTransaction = "app-transaction"
    }

    package var kind: Kind
    /// Position among the record's signed objects, in the order read.
    package var ordinal: Int
    /// Where in the record, e.g. `signedTransactions[3]` or `signedPayload.data.signedTransactionInfo` (empty for a
    /// line that is the JWS itself).
    package var path: String
    package var jws: CompactJWS
    /// The payload's `environment` (a notification's is in `data`).
    package var environment: String?
    package var bundleID: String?
    /// For a transaction: its index in `RecordedReceipt.transactions`; for a renewal info: in `pendingRenewals`.
    package var entryIndex: Int?
    /// A notification's `notificationUUID`, `notificationType` and `subtype`.
    package var notificationUUID: String?
    package var notificationType: String?
    package var notificationSubtype: String?
    /// A transaction's or app transaction's `appTransactionId`.
    package var appTransactionID: String?
}

/// The StoreKit 2 fields of a signed transaction that verifyReceipt never had (FORMATS: JWSTransactionDecodedPayload).
/// What both have (ids, dates, quantity, offers as flags) lives in `TransactionEntry` itself.
package struct SignedTransactionFields: Sendable, Equatable {
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`, as the payload says.
    package var environment: String?
    /// The app the transaction says it belongs to: its own word, whatever the record around it says.
    package var bundleID: String?
    package var signedDate: Timestamp?
    /// In milliunits of `currency` (a price of 10.99 is 10990).
    package var price: Int64?
    package var currency: String?
    package var storefront: String?
    package var storefrontID: String?
    /// `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    package var type: String?
    /// `PURCHASE` or `RENEWAL`.
    package var transactionReason: String?
    package var revocationDate: Timestamp?
    package var revocationReason: Int?
    /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
    package var revocationType: String?
    /// In thousandths of a percent (a half refund is 50000).
    package var revocationPercentage: Int?
    /// 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    package var offerType: Int?
    package var offerIdentifier: String?
    /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`…
    package var offerDiscountType: String?
    /// An ISO 8601 duration, e.g. `P1M`.
    package var offerPeriod: String?
    /// Unique per App Store account per app.
    package var appTransactionID: String?

    package init() {}
}

extension CompactJWS {
    /// Takes the instant Apple documents as the signing date of a payload of `kind`: an app transaction is signed at
    /// its `receiptCreationDate` ("the date that the App Store signs a JWS app transaction"; it has no `signedDate`,
    /// and one written there is not what Apple's verifier reads); every other kind at its `signedDate`, already read.
    /// `path` names the payload in an error.
    package mutating func adoptSigningDate(
        of kind: SignedObject.Kind, path: String = "payload"
    )
        throws(ReceiptRecordError)
    {
        guard kind == .appTransaction else { return }
        signedDate = try FieldReader(payload, path: path).epochMilliseconds("receiptCreationDate")
    }
}

extension RecordedReceipt {
    /// Keeps only the transactions and renewal infos whose JWS verified (`verified[i]` for `signedObjects[i]`): a
    /// signed record that does not verify is kept as its `signed_object` rows, never as a purchase or renewal.
    package mutating func keepVerified(_ verified: [Bool]) {
        var droppedTransactions = Set<Int>()
        var droppedRenewals = Set<Int>()
        // By index, not by copies of each object: nearly every JWS verifies, and a copy retains its fields.
        for (position, isVerified) in zip(signedObjects.indices, verified) where !isVerified {
            guard let index = signedObjects[position].entryIndex else { continue }
            if signedObjects[position].kind == .transaction { droppedTransactions.insert(index) }
            if signedObjects[position].kind == .renewalInfo { droppedRenewals.insert(index) }
        }
        guard !droppedTransactions.isEmpty || !droppedRenewals.isEmpty else { return }
        transactions = transactions.enumerated().filter { !droppedTransactions.contains($0.offset) }.map(\.element)
        pendingRenewals = pendingRenewals.enumerated().filter { !droppedRenewals.contains($0.offset) }.map(\.element)
    }
}
