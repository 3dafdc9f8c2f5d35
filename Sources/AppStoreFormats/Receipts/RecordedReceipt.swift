/// One receipt our server recorded, normalised: who posted it (as a key, never the raw name), Apple's verdict, and
/// every purchase transaction it lists.
package struct RecordedReceipt: Sendable {
    /// Which outer shape the record had.
    package enum Shape: String, Sendable {
        /// `{recorded_at, application_username…, response: {…}}`.
        case envelope
        /// A verifyReceipt answer with no envelope (no account).
        case bareResponse = "bare-response"
        /// An App Store Server Notification V1 body: `unified_receipt`, or the pre-2020 layout without it.
        case notificationV1 = "notification-v1"
        /// A line that is a compact JWS (StoreKit 2), bare or as a JSON string: no account.
        case signed
        /// An App Store Server Notification V2 body, `{"signedPayload": …}`, with no envelope.
        case notificationV2 = "notification-v2"
        /// An App Store Server API response with no envelope: a history page, subscription statuses, notification
        /// history, transaction info.
        case serverAPI = "server-api"
    }

    /// How the receipt inside the response is laid out.
    package enum Style: String, Sendable {
        /// iOS 6 transaction receipt: `receipt` is one flat transaction.
        case ios6
        /// iOS 7+ app receipt with `in_app`.
        case ios7
        /// No decoded receipt (error statuses, notifications).
        case none
        /// StoreKit 2 signed data: every transaction, renewal info and notification is a JWS (`signedObjects`).
        case signed
    }

    package var shape: Shape
    package var style: Style
    /// When our server received it.
    package var recordedAt: Timestamp?
    /// The stored account key (Apple-format hash, or its peppered HMAC).
    package var accountKey: String?
    /// The app account token (a UUID, lowercased).
    package var appAccountToken: String?
    /// An opaque store-account id, when the recorder had one.
    package var storeAccount: String?
    /// SHA-256 of the posted `receipt_data`, for spotting one receipt posted by many accounts.
    package var receiptDataSHA256: [UInt8]?
    /// verifyReceipt status.
    package var status: Int
    /// `environment` as written (`Production`, `Sandbox`; an empty string or a number kept as its text), if present.
    package var environment: String?
    /// Whether anything marks this as no production receipt: sandbox (environment, receipt_type, or status 21007) or
    /// a test environment (`isTestEnvironment`).
    package var isSandbox: Bool
    /// A verifyReceipt answer whose `environment` or `receipt_type` is neither what Apple calls production nor
    /// sandbox (`Xcode`, `LocalTesting`, an empty string, a number): test data or a forgery. The record is kept and
    /// marked sandbox; its transactions are never purchases (docs/inputs.md, "Environment").
    package var isTestEnvironment = false
    /// The retry flag (`is_retryable` or `is-retryable`).
    package var isRetryable: Bool?
    package var receiptType: String?
    /// `bundle_id` (iOS 7), `bid` (iOS 6 and V1 notifications).
    package var bundleID: String?
    package var appItemID: String?
    package var adamID: String?
    package var downloadID: String?
    package var applicationVersion: String?
    package var originalApplicationVersion: String?
    package var versionExternalIdentifier: String?
    package var receiptCreationDate: Timestamp?
    package var requestDate: Timestamp?
    package var originalPurchaseDate: Timestamp?
    /// The V1 notification type, for notifications.
    package var notificationType: String?
    /// Every transaction entry read: iOS 6 `receipt`, `in_app`, `latest_receipt_info` (incl. the expired variant).
    package var transactions: [TransactionEntry]
    package var pendingRenewals: [PendingRenewal]
    /// The record's original bytes minus the raw username (and a notification's shared secret).
    package var storedRecord: [UInt8]
    /// Dates whose forms disagree by more than a day, in the order read (empty for an honest receipt).
    package var dateDisagreements: [DateDisagreement] = []
    /// Every JWS the record holds, in the order read (StoreKit 2 records; empty for verifyReceipt answers).
    package var signedObjects: [SignedObject] = []

    /// `Sandbox` or `Production`: the namespace a legacy transaction id lives in.
    package var transactionEnvironment: String { isSandbox ? "Sandbox" : "Production" }

    /// The environments whose transactions are purchases, spelled as Apple spells them.
    package static let purchaseEnvironments: Set<String> = ["Production", "Sandbox"]

    /// Drops the transactions that can never be purchases: every one of a test-environment answer, and each signed
    /// one whose payload names another environment (`Xcode`, `LocalTesting`, a lowercase `sandbox`). Their record is
    /// kept (a signed one as a verified `signed_object`), never counted.
    package mutating func keepPurchaseEnvironments() {
        if isTestEnvironment {
            transactions.removeAll()
            return
        }
        let isPurchase = { (entry: TransactionEntry) in
            entry.signed?.environment.map(Self.purchaseEnvironments.contains) ?? true
        }
        if !transactions.allSatisfy(isPurchase) { transactions.removeAll { !isPurchase($0) } }
    }

    /// The namespace `entry`'s transaction id lives in: what its signed payload says (`Production`, `Sandbox`,
    /// `Xcode`, `LocalTesting`), else the receipt's.
    package func environment(of entry: TransactionEntry) -> String {
        entry.signed?.environment ?? transactionEnvironment
    }
}

/// One purchase transaction as one receipt lists it.
package struct TransactionEntry: Sendable, Equatable {
    /// Where in the response the entry was found.
    package enum Source: String, Sendable {
        case receipt
        case inApp = "in_app"
        case latestReceiptInfo = "latest_receipt_info"
        /// A signed transaction (JWS payload), wherever in the record it was.
        case signed
    }

    package var source: Source
    /// Position within its source list (0 for the iOS 6 receipt).
    package var ordinal: Int
    package var productID: String
    package var transactionID: String
    package var originalTransactionID: String?
    package var quantity: Int
    package var purchaseDate: Timestamp?
    package var originalPurchaseDate: Timestamp?
    package var expiresDate: Timestamp?
    package var cancellationDate: Timestamp?
    package var cancellationReason: Int?
    package var webOrderLineItemID: String?
    package var isTrialPeriod: Bool?
    package var isInIntroOfferPeriod: Bool?
    package var isUpgraded: Bool?
    package var inAppOwnershipType: String?
    package var subscriptionGroupIdentifier: String?
    package var promotionalOfferID: String?
    package var offerCodeRefName: String?
    package var appAccountToken: String?
    /// iOS 6 `item_id`: the in-app product's Apple ID.
    package var itemID: String?
    /// What only a signed transaction carries; nil for verifyReceipt entries.
    package var signed: SignedTransactionFields?
}

/// One `pending_renewal_info` entry: what a subscription will do next.
package struct PendingRenewal: Sendable, Equatable {
    package var ordinal: Int
    package var originalTransactionID: String?
    package var productID: String?
    package var autoRenewProductID: String?
    package var autoRenewStatus: Bool?
    package var expirationIntent: Int?
    package var isInBillingRetryPeriod: Bool?
    package var gracePeriodExpiresDate: Timestamp?
    package var priceConsentStatus: Int?
    package var offerCodeRefName: String?
    package var promotionalOfferID: String?
}
