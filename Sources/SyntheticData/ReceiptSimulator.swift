internal import AppStoreFormats

/// Decides, receipt by receipt, what happens to an account in the App Store — purchases, renewals, upgrades,
/// refunds, restores, family sharing, sandbox tests, errors — and hands out transaction ids.
///
/// Accounts live outside the simulator (the generator owns the array) so `plan(for:at:)` can mutate one account in
/// place while drawing from the simulator's random stream, with no copy-on-write of the account's arrays.
struct ReceiptSimulator {
    let catalog: SyntheticCatalog
    let scenario: ReceiptScenario
    private var rng: SeededGenerator
    /// A shuffled account order, so the busiest accounts (low draws) are spread over the username list.
    private var activityOrder: [Int] = []
    // Id ranges: iOS 6 ids have 15 digits, iOS 7 production and sandbox ids 16. Each counter only grows, so an id
    // never repeats within its environment; production stays below the sandbox range for 25 million ids.
    private var nextLegacyID: UInt64 = 140_000_000_000_000
    private var nextProductionID: UInt64 = 1_000_000_100_000_000
    private var nextSandboxID: UInt64 = 1_000_000_900_000_000
    private var nextWebOrderLineItemID: UInt64 = 100_000_000_000_000
    /// Features not produced yet. Each one's first opportunity is taken whatever the draw (when its rate is above
    /// zero), so even a small data set shows every kind; after that, only the rates decide.
    private var awaitsRefund = true
    private var awaitsUpgrade = true
    private var awaitsFamilySharing = true
    private var awaitsTrial = true
    private var awaitsSandboxReceipt = true
    private var awaitsStatus21003 = true
    private var awaitsStatus21007 = true

    private static let second: Int64 = 1000
    private static let hour = AppleTime.millisecondsPerHour
    private static let day = AppleTime.millisecondsPerDay

    init(scenario: ReceiptScenario, catalog: SyntheticCatalog, rng: SeededGenerator) {
        self.scenario = scenario
        self.catalog = catalog
        self.rng = rng
    }

    // MARK: Accounts

    /// Creates the scenario's accounts, with the history they had before the first recorded day.
    mutating func makeAccounts(startMilliseconds start: Int64) -> [SimulatedAccount] {
        let count = scenario.accounts
        var order = Array(0..<count)
        for index in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(index, rng.nextInt(below: index + 1))
        }
        activityOrder = order

        let width = max(4, String(count).count)
        var accounts: [SimulatedAccount] = []
        accounts.reserveCapacity(count)
        var lastStoreAccount: [UInt8]?
        for index in 0..<count {
            let isLegacy = rng.chance(scenario.legacyReceiptShare)
            let app = isLegacy ? (rng.chance(0.7) ? 0 : 2) : pickWeighted([0.40, 0.35, 0.25])
            let username = Self.username(index: index, width: width)
            let identity: SimulatedAccount.Identity
            let identityValue: [UInt8]
            switch rng.nextUnit() {
            case ..<0.70:
                identity = .username
                identityValue = Array(username.utf8)
            case ..<0.82:
                identity = .usernameHash
                identityValue = Array(AppleUsernameHash.hash(username).utf8)
            case ..<0.92:
                identity = .accountToken
                identityValue = uuid(uppercase: false)
            default:
                identity = .none
                identityValue = []
            }
            var storeAccount: [UInt8]?
            if rng.chance(0.25) {
                // A household shares one Apple ID now and then.
                if let previous = lastStoreAccount, rng.chance(0.1) {
                    storeAccount = previous
                } else {
                    storeAccount = Array(String(rng.nextInt(in: 1_000_000_000...1_999_999_999)).utf8)
                }
                lastStoreAccount = storeAccount
            }
            let wantsSubscription =
                !isLegacy && !catalog.subscriptionsByApp[app].isEmpty && rng.chance(scenario.subscriptionShare)
            let appPurchase = start - rng.nextInt64(in: 1...400) * Self.day - rng.nextInt64(in: 0...86_399) * 1000
            var account = SimulatedAccount(
                identity: identity,
                username: username,
                identityValue: identityValue,
                storeAccount: storeAccount,
                app: app,
                isLegacyDevice: isLegacy,
                wantsSubscription: wantsSubscription,
                usesTypedValues: rng.chance(0.02),
                escapesSlashes: rng.chance(0.1),
                recordsReceiptData: rng.chance(0.92),
                appPurchaseMilliseconds: appPurchase,
                originalApplicationVersion: max(1, catalog.apps[app].buildNumber - rng.nextInt(in: 0...60)),
                deviceIdentifier: hexDigits(count: 40),
                vendorIdentifier: uuid(uppercase: true),
                downloadID: UInt64(rng.nextInt64(in: 10_000_000_000...99_999_999_999_999))
            )
            if !isLegacy {
                addHistory(to: &account, before: start)
            }
            accounts.append(account)
        }
        return accounts
    }

    /// Purchases an iOS 7 account made before recording started, so its first receipts already list some.
    private mutating func addHistory(to account: inout SimulatedAccount, before start: Int64) {
        let lifetime = start - account.appPurchaseMilliseconds
        let nonConsumables = catalog.ownablesByApp[account.app].filter {
            catalog.products[$0].kind == .nonConsumable
        }
        if !nonConsumables.isEmpty && rng.chance(0.5) {
            let first = nonConsumables[rng.nextInt(below: nonConsumables.count)]
            let time = secondAligned(account.appPurchaseMilliseconds + rng.nextInt64(in: 0...lifetime - 1))
            account.owned.append(newOwnable(product: first, at: time, account: account))
        }
        if account.wantsSubscription && rng.chance(0.6) {
            let earliest = max(account.appPurchaseMilliseconds, start - 200 * Self.day)
            let time = secondAligned(earliest + rng.nextInt64(in: 0...(start - earliest - 1)))
            subscribe(&account, at: time)
            renew(&account, upTo: start)
        }
    }

    /// Picks the account that posts the next receipt: most draws uniform, some skewed toward a busy few.
    mutating func pickAccount() -> Int {
        let count = activityOrder.count
        let slot: Int
        if rng.chance(0.7) {
            slot = rng.nextInt(below: count)
        } else {
            let unit = rng.nextUnit()
            slot = min(count - 1, Int(Double(count) * unit * unit))
        }
        return activityOrder[slot]
    }

    // MARK: Receipts

    /// Moves `account` to `now` and decides what the receipt it posts then will show.
    mutating func plan(for account: inout SimulatedAccount, at now: Int64) -> RecordPlan {
        let roll = rng.nextUnit()
        let isError = roll < scenario.errorStatusRate
        let isSandbox = !isError && roll < scenario.errorStatusRate + scenario.sandboxLeakRate
        if account.isLegacyDevice {
            if isError { return .status(errorStatus()) }
            if isSandbox {
                awaitsStatus21007 = false
                return .status(21007)
            }
            return .legacyPurchase(newLegacyConsumable(for: account, at: now))
        }
        renew(&account, upTo: now)
        if isError { return .status(errorStatus()) }
        if isSandbox {
            let isStatus21007 = !awaitsSandboxReceipt && (awaitsStatus21007 || rng.chance(0.25))
            if isStatus21007 {
                awaitsStatus21007 = false
                return .status(21007)
            }
            awaitsSandboxReceipt = false
            return sandboxReceipt(for: account, at: now)
        }
        return .appReceipt(newConsumable: purchase(&account, at: now))
    }

    private mutating func errorStatus() -> Int {
        if awaitsStatus21003 {
            awaitsStatus21003 = false
            return 21003
        }
        return switch rng.nextUnit() {
        case ..<0.45: 21002
        case ..<0.70: 21003
        case ..<0.80: 21010
        case ..<0.87: 21005
        case ..<0.92: 21009
        default: 21100
        }
    }

    /// The purchase (or restore, upgrade, family grant) behind an iOS 7 receipt; returns the consumable bought, if
    /// that is what happened.
    private mutating func purchase(_ account: inout SimulatedAccount, at now: Int64) -> SimulatedTransaction? {
        let time = secondAligned(now - rng.nextInt64(in: 2...40) * Self.second)
        let app = account.app
        let wantsFamilySharing =
            scenario.familySharedRate > 0 && (awaitsFamilySharing || rng.chance(scenario.familySharedRate))
        if catalog.apps[app].hasModernFields && wantsFamilySharing && grantFamilyPurchase(&account, at: time) {
            awaitsFamilySharing = false
            return nil
        }
        let consumables = catalog.consumablesByApp[app]
        let ownables = buyableOwnables(account, at: time)
        let subscription = account.subscription
        let canSubscribe =
            account.wantsSubscription
            && (subscription.map { !$0.isActive(at: time) && !$0.isFamilyShared && !$0.willAutoRenew } ?? true)
        let upgrade = upgradeTarget(account, at: time)
        let canRestore = account.owned.contains { isRestorable($0) }
        let weights = [
            consumables.isEmpty ? 0 : 0.45,
            ownables.isEmpty ? 0 : 0.12,
            canSubscribe ? 0.12 : 0,
            upgrade == nil ? 0 : 0.08,
            canRestore ? 0.04 : 0,
            account.hasReceiptContents ? 0.23 : 0,
        ]
        if awaitsUpgrade, let upgrade {
            awaitsUpgrade = false
            self.upgrade(&account, to: upgrade, at: time)
            return nil
        }
        switch pickWeighted(weights) {
        case 0 where !consumables.isEmpty:
            let product = consumables[rng.nextInt(below: consumables.count)]
            return newConsumable(product: product, at: time, account: account)
        case 1 where !ownables.isEmpty:
            let product = ownables[rng.nextInt(below: ownables.count)]
            account.owned.append(newOwnable(product: product, at: time, account: account))
        case 2:
            subscribe(&account, at: time)
        case 3:
            if let upgrade {
                awaitsUpgrade = false
                self.upgrade(&account, to: upgrade, at: time)
            }
        case 4:
            restore(&account, at: time)
        default:
            break  // The app re-posts its current receipt (launch, refresh): renewals and refunds show up here.
        }
        return nil
    }

    // MARK: Purchases

    private mutating func newLegacyConsumable(for account: SimulatedAccount, at now: Int64) -> SimulatedTransaction {
        let consumables = catalog.consumablesByApp[account.app]
        let product = consumables.isEmpty ? 0 : consumables[rng.nextInt(below: consumables.count)]
        nextLegacyID += UInt64(rng.nextInt(in: 1...2000))
        let time = secondAligned(now - rng.nextInt64(in: 2...40) * Self.second)
        return SimulatedTransaction(
            transactionID: nextLegacyID, originalTransactionID: nextLegacyID, product: product,
            purchaseMilliseconds: time, originalPurchaseMilliseconds: time, quantity: drawQuantity()
        )
    }

    private mutating func newConsumable(
        product: Int, at time: Int64, account: SimulatedAccount
    )
        -> SimulatedTransaction
    {
        let id = newProductionID()
        return SimulatedTransaction(
            transactionID: id, originalTransactionID: id, product: product, purchaseMilliseconds: time,
            originalPurchaseMilliseconds: time, quantity: drawQuantity(),
            carriesAccountToken: account.identity == .accountToken
        )
    }

    private mutating func drawQuantity() -> UInt8 {
        rng.chance(0.03) ? UInt8(rng.nextInt(in: 2...5)) : 1
    }

    /// A non-consumable, non-renewing or free subscription bought at `time`, maybe refunded later.
    private mutating func newOwnable(product: Int, at time: Int64, account: SimulatedAccount) -> SimulatedTransaction {
        let id = newProductionID()
        var transaction = SimulatedTransaction(
            transactionID: id, originalTransactionID: id, product: product, purchaseMilliseconds: time,
            originalPurchaseMilliseconds: time, carriesAccountToken: account.identity == .accountToken
        )
        if catalog.products[product].kind != .freeSubscription {
            scheduleRefund(&transaction, within: 3 * Self.day)
        }
        return transaction
    }

    /// Ownables the account may buy now: what it does not own, and a non-renewing pass once the last one lapsed.
    private func buyableOwnables(_ account: SimulatedAccount, at time: Int64) -> [Int] {
        catalog.ownablesByApp[account.app].filter { product in
            let held = account.owned.filter { $0.product == product }
            if catalog.products[product].kind == .nonRenewing {
                return held.allSatisfy { time - $0.purchaseMilliseconds > 30 * Self.day }
            }
            return held.isEmpty
        }
    }

    private func isRestorable(_ transaction: SimulatedTransaction) -> Bool {
        catalog.products[transaction.product].kind == .nonConsumable && !transaction.isFamilyShared
            && transaction.cancellationMilliseconds == 0
    }

    /// A restore on a new device: each purchased non-consumable gets a new transaction id under its original one.
    private mutating func restore(_ account: inout SimulatedAccount, at time: Int64) {
        for index in account.owned.indices where isRestorable(account.owned[index]) {
            let old = account.owned[index]
            account.owned[index] = SimulatedTransaction(
                transactionID: newProductionID(), originalTransactionID: old.originalTransactionID,
                product: old.product, purchaseMilliseconds: time,
                originalPurchaseMilliseconds: old.originalPurchaseMilliseconds,
                carriesAccountToken: old.carriesAccountToken
            )
        }
        account.downloadID = UInt64(rng.nextInt64(in: 10_000_000_000...99_999_999_999_999))
        account.vendorIdentifier = uuid(uppercase: true)
    }

    /// A family organizer's purchase reaching this account: its own transaction ids, `FAMILY_SHARED`.
    private mutating func grantFamilyPurchase(_ account: inout SimulatedAccount, at time: Int64) -> Bool {
        let subscriptions = catalog.subscriptionsByApp[account.app]
        if account.subscription == nil && !subscriptions.isEmpty && rng.chance(0.5) {
            let start = secondAligned(time - rng.nextInt64(in: 0...20 * 86_400) * Self.second)
            var subscription = SimulatedSubscription(
                product: subscriptions[0], originalTransactionID: 0, originalPurchaseMilliseconds: start,
                isFamilyShared: true
            )
            appendPeriod(
                to: &subscription, product: subscriptions[0], start: start, purchase: start, trial: false,
                carriesToken: false)
            account.subscription = subscription
            renew(&account, upTo: time)
            return true
        }
        let candidates = catalog.ownablesByApp[account.app].filter { product in
            catalog.products[product].kind == .nonConsumable && !account.owned.contains { $0.product == product }
        }
        guard !candidates.isEmpty else { return false }
        let id = newProductionID()
        let purchased = secondAligned(time - rng.nextInt64(in: 0...5 * 86_400) * Self.second)
        account.owned.append(
            SimulatedTransaction(
                transactionID: id, originalTransactionID: id, product: candidates[rng.nextInt(below: candidates.count)],
                purchaseMilliseconds: purchased, originalPurchaseMilliseconds: purchased, isFamilyShared: true
            )
        )
        return true
    }

    // MARK: Subscriptions

    /// Starts (or restarts, under the same original transaction) the account's subscription at `time`.
    private mutating func subscribe(_ account: inout SimulatedAccount, at time: Int64) {
        let token = account.identity == .accountToken
        if var subscription = account.subscription {
            account.subscription = nil  // Sole owner of the periods array, so appending does not copy it.
            subscription.willAutoRenew = true
            subscription.expirationIntent = 0
            appendPeriod(
                to: &subscription, product: subscription.product, start: time, purchase: time, trial: false,
                carriesToken: token)
            account.subscription = subscription
            return
        }
        let choices = catalog.subscriptionsByApp[account.app]
        guard !choices.isEmpty else { return }
        let product = rng.chance(0.6) ? choices[0] : choices[rng.nextInt(below: choices.count)]
        let trial = catalog.products[product].offersTrial && (awaitsTrial || rng.chance(0.35))
        if trial { awaitsTrial = false }
        var subscription = SimulatedSubscription(
            product: product, originalTransactionID: 0, originalPurchaseMilliseconds: time
        )
        appendPeriod(
            to: &subscription, product: product, start: time, purchase: time, trial: trial,
            carriesToken: token)
        account.subscription = subscription
    }

    /// Bills every period that began by `now` (lazily: only when the account next posts a receipt), unless the
    /// subscriber turns auto-renew off or billing fails first.
    private mutating func renew(_ account: inout SimulatedAccount, upTo now: Int64) {
        guard var subscription = account.subscription, subscription.willAutoRenew,
            subscription.expiresMilliseconds <= now
        else { return }
        account.subscription = nil
        let token = account.identity == .accountToken
        while subscription.willAutoRenew && subscription.expiresMilliseconds <= now {
            if rng.chance(0.07) {
                subscription.willAutoRenew = false
                subscription.expirationIntent = 1
            } else if rng.chance(0.02) {
                subscription.willAutoRenew = false
                subscription.expirationIntent = 2
            } else {
                // Apple bills up to a day ahead; the new period starts where the last one ended.
                let start = subscription.expiresMilliseconds
                let billed = start - rng.nextInt64(in: 0...3600) * Self.second
                appendPeriod(
                    to: &subscription, product: subscription.product, start: start, purchase: billed,
                    trial: false, carriesToken: token)
            }
        }
        account.subscription = subscription
    }

    /// The next tier up in the account's subscription group, if the account may upgrade now.
    private func upgradeTarget(_ account: SimulatedAccount, at time: Int64) -> Int? {
        guard let subscription = account.subscription, !subscription.isFamilyShared,
            subscription.isActive(at: time), let last = subscription.periods.last,
            last.cancellationMilliseconds == 0, !last.isTrialPeriod
        else { return nil }
        let current = catalog.products[subscription.product]
        return catalog.subscriptionsByApp[account.app].first {
            catalog.products[$0].groupID == current.groupID && catalog.products[$0].tier == current.tier + 1
        }
    }

    /// An upgrade: the current period is cancelled with `is_upgraded`, a period of the higher tier starts now.
    private mutating func upgrade(_ account: inout SimulatedAccount, to product: Int, at time: Int64) {
        guard var subscription = account.subscription, !subscription.periods.isEmpty else { return }
        account.subscription = nil
        let last = subscription.periods.count - 1
        subscription.periods[last].isUpgraded = true
        subscription.periods[last].cancellationMilliseconds = time
        subscription.product = product
        appendPeriod(
            to: &subscription, product: product, start: time, purchase: time, trial: false,
            carriesToken: account.identity == .accountToken)
        account.subscription = subscription
    }

    /// Adds one billing period: a new transaction and web order line item under the subscription's original id.
    private mutating func appendPeriod(
        to subscription: inout SimulatedSubscription, product: Int, start: Int64, purchase: Int64, trial: Bool,
        carriesToken: Bool
    ) {
        let id = newProductionID()
        if subscription.originalTransactionID == 0 {
            subscription.originalTransactionID = id
            subscription.originalPurchaseMilliseconds = purchase
        }
        let period = catalog.products[product].period ?? .month
        let expires = trial ? start + 7 * Self.day : period.end(after: start)
        var transaction = SimulatedTransaction(
            transactionID: id, originalTransactionID: subscription.originalTransactionID, product: product,
            purchaseMilliseconds: purchase, originalPurchaseMilliseconds: subscription.originalPurchaseMilliseconds,
            expiresMilliseconds: expires, webOrderLineItemID: newWebOrderLineItemID(), isTrialPeriod: trial,
            isFamilyShared: subscription.isFamilyShared,
            carriesAccountToken: carriesToken && !subscription.isFamilyShared
        )
        if !trial && !subscription.isFamilyShared
            && scheduleRefund(&transaction, within: min(3 * Self.day, (expires - purchase) / 2))
        {
            // A refunded subscription stops: Apple ends it and it does not renew.
            subscription.willAutoRenew = false
            subscription.expirationIntent = 1
        }
        subscription.periods.append(transaction)
    }

    /// With the scenario's refund rate, sets a refund between an hour and `window` after the purchase.
    @discardableResult
    private mutating func scheduleRefund(_ transaction: inout SimulatedTransaction, within window: Int64) -> Bool {
        guard scenario.refundRate > 0, awaitsRefund || rng.chance(scenario.refundRate) else { return false }
        awaitsRefund = false
        let delay = rng.nextInt64(in: Self.hour...max(Self.hour, window))
        transaction.cancellationMilliseconds = secondAligned(transaction.purchaseMilliseconds + delay)
        transaction.cancellationReason = rng.chance(0.2) ? 1 : 0
        return true
    }

    // MARK: Sandbox

    /// A tester's sandbox receipt: sandbox ids, accelerated subscription periods, nothing kept in the account.
    private mutating func sandboxReceipt(for account: SimulatedAccount, at now: Int64) -> RecordPlan {
        var purchases: [SimulatedTransaction] = []
        let products = catalog.consumablesByApp[account.app] + catalog.ownablesByApp[account.app]
        for _ in 0..<rng.nextInt(in: 1...2) where !products.isEmpty {
            let id = newSandboxID()
            let time = secondAligned(now - rng.nextInt64(in: 5...600) * Self.second)
            purchases.append(
                SimulatedTransaction(
                    transactionID: id, originalTransactionID: id, product: products[rng.nextInt(below: products.count)],
                    purchaseMilliseconds: time, originalPurchaseMilliseconds: time
                )
            )
        }
        var subscription: SimulatedSubscription?
        let subscriptions = catalog.subscriptionsByApp[account.app]
        if !subscriptions.isEmpty && (purchases.isEmpty || rng.chance(0.4)) {
            let product = subscriptions[rng.nextInt(below: subscriptions.count)]
            let length = (catalog.products[product].period ?? .month).sandboxMilliseconds
            let count = rng.nextInt(in: 1...5)
            var start = secondAligned(now - Int64(count) * length - rng.nextInt64(in: 1...60) * Self.second)
            var sandbox = SimulatedSubscription(
                product: product, originalTransactionID: 0, originalPurchaseMilliseconds: start
            )
            for _ in 0..<count {
                let id = newSandboxID()
                if sandbox.originalTransactionID == 0 { sandbox.originalTransactionID = id }
                sandbox.periods.append(
                    SimulatedTransaction(
                        transactionID: id, originalTransactionID: sandbox.originalTransactionID, product: product,
                        purchaseMilliseconds: start, originalPurchaseMilliseconds: sandbox.originalPurchaseMilliseconds,
                        expiresMilliseconds: start + length, webOrderLineItemID: newWebOrderLineItemID()
                    )
                )
                start += length
            }
            subscription = sandbox
        }
        return .sandboxReceipt(purchases: purchases, subscription: subscription)
    }

    // MARK: Ids and helpers

    private mutating func newProductionID() -> UInt64 {
        nextProductionID += UInt64(rng.nextInt(in: 1...64))
        return nextProductionID
    }

    private mutating func newSandboxID() -> UInt64 {
        nextSandboxID += UInt64(rng.nextInt(in: 1...100))
        return nextSandboxID
    }

    private mutating func newWebOrderLineItemID() -> UInt64 {
        nextWebOrderLineItemID += UInt64(rng.nextInt(in: 1...500))
        return nextWebOrderLineItemID
    }

    /// Index drawn in proportion to `weights` (which need not sum to 1); 0 when all are zero.
    private mutating func pickWeighted(_ weights: [Double]) -> Int {
        let total = weights.reduce(0, +)
        guard total > 0 else { return 0 }
        var remaining = rng.nextUnit() * total
        for (index, weight) in weights.enumerated() where weight > 0 {
            if remaining < weight { return index }
            remaining -= weight
        }
        return weights.lastIndex { $0 > 0 } ?? 0
    }

    private func secondAligned(_ milliseconds: Int64) -> Int64 {
        AppleTime.floorDivide(milliseconds, Self.second) * Self.second
    }

    private mutating func hexDigits(count: Int) -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(count)
        var bits: UInt64 = 0
        for index in 0..<count {
            if index % 16 == 0 { bits = rng.next() }
            digits.append(LowercaseHex.digits[Int(bits & 0xF)])
            bits >>= 4
        }
        return digits
    }

    /// A random (version 4) UUID, `8-4-4-4-12` hex digits.
    private mutating func uuid(uppercase: Bool) -> [UInt8] {
        var digits = hexDigits(count: 32)
        digits[12] = UInt8(ascii: "4")
        digits[16] = LowercaseHex.digits[8 + Int(digits[16] % 4)]
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, digit) in digits.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            let isLetter = digit >= UInt8(ascii: "a")
            text.append(uppercase && isLetter ? digit - 32 : digit)
        }
        return text
    }

    /// `user0042@example.com`, with a few names that need escaping or are not ASCII, since the hash is over UTF-8
    /// bytes without normalisation.
    static func username(index: Int, width: Int) -> String {
        var number = String(index + 1)
        if number.count < width { number = String(repeating: "0", count: width - number.count) + number }
        switch index % 29 {
        case 7: return "zoë.müller.\(number)@example.com"
        case 14: return "o'brien+\(number)@example.com"
        case 21: return "名前\(number)@example.jp"
        case 28: return "\"quoted\\name\".\(number)@example.com"
        default: return "user\(number)@example.com"
        }
    }
}
