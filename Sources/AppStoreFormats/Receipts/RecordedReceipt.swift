/// One receipt our server recorded, normalised: who posted it (as a key, never the raw name), Apple's verdict, and
/// every purchase transaction it lists.
public struct RecordedReceipt: Sendable {
    /// Which outer shape the record had.
    public enum Shape: String, Sendable {
        /// `{recorded_at, application_username…, response: {…}}`.
        case envelope
        /// A verifyReceipt answer with no envelope (no account).
        case bareResponse = "bare-response"
        /// An App Store Server Notification V1 body: `unified_receipt`, or the pre-2020 layout without it.
        case notificationV1 = "notification-v1"
    }

    /// How the receipt inside the response is laid out.
    public enum Style: String, Sendable {
        /// iOS 6 transaction receipt: `receipt` is one flat transaction.
        case ios6
        /// iOS 7+ app receipt with `in_app`.
        case ios7
        /// No decoded receipt (error statuses, notifications).
        case none
    }

    public var shape: Shape
    public var style: Style
    /// When our server received it.
    public var recordedAt: Timestamp?
    /// The stored account key (Apple-format hash, or its peppered HMAC).
    public var accountKey: String?
    /// The app account token (a UUID, lowercased).
    public var appAccountToken: String?
    /// An opaque store-account id, when the recorder had one.
    public var storeAccount: String?
    /// SHA-256 of the posted `receipt_data`, for spotting one receipt posted by many accounts.
    public var receiptDataSHA256: [UInt8]?
    /// verifyReceipt status.
    public var status: Int
    /// `environment` as Apple wrote it (`Production`, `Sandbox`), if present.
    public var environment: String?
    /// Whether anything marks this as a sandbox receipt (environment, receipt_type, or status 21007).
    public var isSandbox: Bool
    /// The retry flag (`is_retryable` or `is-retryable`).
    public var isRetryable: Bool?
    public var receiptType: String?
    /// `bundle_id` (iOS 7), `bid` (iOS 6 and V1 notifications).
    public var bundleID: String?
    public var appItemID: String?
    public var adamID: String?
    public var downloadID: String?
    public var applicationVersion: String?
    public var originalApplicationVersion: String?
    public var versionExternalIdentifier: String?
    public var receiptCreationDate: Timestamp?
    public var requestDate: Timestamp?
    public var originalPurchaseDate: Timestamp?
    /// The V1 notification type, for notifications.
    public var notificationType: String?
    /// Every transaction entry read: iOS 6 `receipt`, `in_app`, `latest_receipt_info` (incl. the expired variant).
    public var transactions: [TransactionEntry]
    public var pendingRenewals: [PendingRenewal]
    /// The record's original bytes minus the raw username (and a notification's shared secret).
    public var storedRecord: [UInt8]
    /// Dates whose forms disagree by more than a day, in the order read (empty for an honest receipt).
    public var dateDisagreements: [DateDisagreement] = []

    /// `Sandbox` or `Production`: the namespace a transaction id lives in.
    public var transactionEnvironment: String { isSandbox ? "Sandbox" : "Production" }
}

/// One purchase transaction as one receipt lists it.
public struct TransactionEntry: Sendable, Equatable {
    /// Where in the response the entry was found.
    public enum Source: String, Sendable {
        case receipt
        case inApp = "in_app"
        case latestReceiptInfo = "latest_receipt_info"
    }

    public var source: Source
    /// Position within its source list (0 for the iOS 6 receipt).
    public var ordinal: Int
    public var productID: String
    public var transactionID: String
    public var originalTransactionID: String?
    public var quantity: Int
    public var purchaseDate: Timestamp?
    public var originalPurchaseDate: Timestamp?
    public var expiresDate: Timestamp?
    public var cancellationDate: Timestamp?
    public var cancellationReason: Int?
    public var webOrderLineItemID: String?
    public var isTrialPeriod: Bool?
    public var isInIntroOfferPeriod: Bool?
    public var isUpgraded: Bool?
    public var inAppOwnershipType: String?
    public var subscriptionGroupIdentifier: String?
    public var promotionalOfferID: String?
    public var offerCodeRefName: String?
    public var appAccountToken: String?
    /// iOS 6 `item_id`: the in-app product's Apple ID.
    public var itemID: String?
}

/// One `pending_renewal_info` entry: what a subscription will do next.
public struct PendingRenewal: Sendable, Equatable {
    public var ordinal: Int
    public var originalTransactionID: String?
    public var productID: String?
    public var autoRenewProductID: String?
    public var autoRenewStatus: Bool?
    public var expirationIntent: Int?
    public var isInBillingRetryPeriod: Bool?
    public var gracePeriodExpiresDate: Timestamp?
    public var priceConsentStatus: Int?
    public var offerCodeRefName: String?
    public var promotionalOfferID: String?
}
