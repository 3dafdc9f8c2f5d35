/// An account's auto-renewable subscription in one group: its billing periods so far and its renewal intent.
struct SimulatedSubscription {
    /// The product the next renewal bills (changes on upgrade).
    var product: Int
    /// Shared by every period, renewal, upgrade and resubscription in the group, as Apple does.
    var originalTransactionID: UInt64
    var originalPurchaseMilliseconds: Int64
    /// Every period, oldest first.
    var periods: [SimulatedTransaction] = []
    var willAutoRenew = true
    /// Why it stopped renewing (pending_renewal_info `expiration_intent`): 1 cancelled, 2 billing error; 0 while on.
    var expirationIntent: UInt8 = 0
    var isFamilyShared = false

    /// When the latest period ends.
    var expiresMilliseconds: Int64 {
        periods.last?.expiresMilliseconds ?? 0
    }

    /// Whether a period covers `now`.
    func isActive(at now: Int64) -> Bool {
        expiresMilliseconds > now
    }
}
