/// One App Store transaction as the simulation keeps it: everything a receipt entry shows about it.
///
/// A transaction re-appears unchanged in every later receipt of its account, except that a refund or upgrade
/// (`cancellationMilliseconds`) shows only in receipts recorded after it happened.
struct SimulatedTransaction {
    var transactionID: UInt64
    var originalTransactionID: UInt64
    var product: Int
    var purchaseMilliseconds: Int64
    var originalPurchaseMilliseconds: Int64
    /// Auto-renewable periods only; 0 otherwise.
    var expiresMilliseconds: Int64 = 0
    /// Auto-renewable periods only; 0 otherwise.
    var webOrderLineItemID: UInt64 = 0
    /// When a refund or an upgrade cancelled it; 0 when never.
    var cancellationMilliseconds: Int64 = 0
    var cancellationReason: UInt8 = 0
    var quantity: UInt8 = 1
    var isTrialPeriod = false
    var isUpgraded = false
    var isFamilyShared = false
    /// The purchase was made with the account's `app_account_token`, so the entry repeats it.
    var carriesAccountToken = false

    /// Whether a receipt recorded at `now` shows the cancellation.
    func isCancelled(asOf now: Int64) -> Bool {
        cancellationMilliseconds != 0 && cancellationMilliseconds <= now
    }

    /// Whether a receipt recorded at `now` shows this as refunded (a cancellation that is not an upgrade).
    func isRefunded(asOf now: Int64) -> Bool {
        isCancelled(asOf: now) && !isUpgraded
    }
}
