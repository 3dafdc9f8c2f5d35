/// What one recorded receipt will show; the simulation decides it, the record writer spells it out.
enum RecordPlan {
    /// An iOS 6 transaction receipt for one consumable.
    case legacyPurchase(SimulatedTransaction)
    /// An iOS 7 production app receipt of the account, plus the consumable just bought, if any (finished consumables
    /// leave the receipt, so only the fresh one shows).
    case appReceipt(newConsumable: SimulatedTransaction?)
    /// A sandbox app receipt (status 0, environment Sandbox): fresh sandbox purchases, optionally an accelerated
    /// sandbox subscription.
    case sandboxReceipt(purchases: [SimulatedTransaction], subscription: SimulatedSubscription?)
    /// A response with a non-zero status and no receipt (21002, 21003, 21005, 21007, 21009, 21010, 21100).
    case status(Int)

    /// Whether the response carries a receipt that a wrong-type or invalid-date corruption can break.
    var hasReceipt: Bool {
        if case .status = self { return false }
        return true
    }
}
