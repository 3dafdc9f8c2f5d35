/// One app account on our server (a user of one app) and the App Store state its receipts reveal.
struct SimulatedAccount {
    /// Which account field the recorder stored.
    enum Identity {
        /// `application_username`: the raw name (the ingest hashes it).
        case username
        /// `application_username_hash`: Apple's 71-character hash, as the app sent it.
        case usernameHash
        /// `app_account_token`: a UUID.
        case accountToken
        /// No account field.
        case none
    }

    let identity: Identity
    /// The raw name; written only for `.username`, hashed for `.usernameHash`.
    let username: String
    /// The bytes of the account field's value (name, hash or UUID); empty for `.none`.
    let identityValue: [UInt8]
    /// The recorder's store-account id, if it had one.
    let storeAccount: [UInt8]?
    let app: Int
    /// On an iOS 6 device: posts transaction receipts for consumables only.
    let isLegacyDevice: Bool
    let wantsSubscription: Bool
    /// The recorder re-encoded Apple's strings as JSON numbers and booleans (seen in real data).
    let usesTypedValues: Bool
    /// The recorder escaped `/` as `\/` (PHP's default).
    let escapesSlashes: Bool
    let recordsReceiptData: Bool
    /// When the app was first downloaded (iOS 7 receipt `original_purchase_date`).
    let appPurchaseMilliseconds: Int64
    let originalApplicationVersion: Int
    /// iOS 6 `unique_identifier` (40 hex digits).
    var deviceIdentifier: [UInt8]
    /// iOS 6 `unique_vendor_identifier` (uppercase UUID).
    var vendorIdentifier: [UInt8]
    var downloadID: UInt64
    /// Non-consumables, non-renewing and free subscriptions (purchased, restored or family-shared): they stay in
    /// every later app receipt. A restore replaces the entry it restores.
    var owned: [SimulatedTransaction] = []
    var subscription: SimulatedSubscription?
    /// Whether the full raw name has appeared in some output line (the manifest lists those names).
    var hasWrittenUsername = false

    /// Whether an iOS 7 receipt would list anything.
    var hasReceiptContents: Bool {
        !owned.isEmpty || !(subscription?.periods.isEmpty ?? true)
    }
}
