internal import AppStoreFormats

/// Simulates StoreKit 2 accounts over the scenario's days — purchases, renewals, an upgrade, a family-shared grant,
/// a prorated refund — and lays out every record that delivers them, in every shape docs/decisions.md ("Signed
/// data") lists, plus the planted failures. `SignedRecordWriter` writes the lines and the manifest.
struct SignedDataPlan {
    /// One line of output.
    struct Line {
        /// `SignedRecordWriter.Part` raw value: which file.
        var part: String
        var time: Int64
        var shape: String
        /// `.jws` alone is written bare for `jws-line` and as a JSON string for `jws-string`.
        var body: SignedJSON
        /// For a planted `invalid-jws` line: the text as written.
        var rawText: String?
    }

    /// One app account of ours that buys through StoreKit 2.
    struct Account {
        let username: String
        let accountToken: String
        let appTransactionID: String
        let app: Int
        let storefront: Storefront
        /// The envelope names the account by `app_account_token` rather than `application_username`.
        let isKnownByToken: Bool
    }

    struct Storefront {
        let code: String
        let id: String
        let currency: String
    }

    /// A transaction as StoreKit 2 signs it: the simulation's transaction plus what the signed payload adds.
    struct Transaction {
        var base: SimulatedTransaction
        /// Milliunits of the storefront's currency; nil for a family-shared grant (nobody paid).
        var price: Int64?
        var isRenewal = false
        var isFreeTrial = false
        var revocationType: String?
        /// Milli-percent of the price refunded (`REFUND_PRORATED`).
        var revocationPercentage: Int64?
    }

    struct PlantedRecord {
        var outcome: String
        var description: String
        var line: Int
        var severity: String?
    }

    struct TrapRecord {
        var trap: String
        var description: String
        var transactionIDs: [String]
        var lines: [Int]
    }

    static let storefronts = [
        Storefront(code: "USA", id: "143441", currency: "USD"), Storefront(code: "DEU", id: "143443", currency: "EUR"),
        Storefront(code: "GBR", id: "143444", currency: "GBP"),
    ]
    /// Price of each catalog product in milliunits (the same figures in every currency, as a simple price tier).
    static let prices: [Int64] = [990, 4990, 9990, 2990, 1990, 1990, 5990, 49990, 2990, 0, 3990, 1990, 3990, 29990]

    let catalog: SyntheticCatalog
    let chain: SigningChain
    let start: Int64
    let end: Int64
    var rng: SeededGenerator
    var lines: [Line] = []
    var planted: [PlantedRecord] = []
    var traps: [TrapRecord] = []
    /// Notifications sent, for the notification-history page.
    var sentNotifications: [(token: SignedToken, time: Int64, app: Int)] = []
    var nextTransactionID: UInt64 = 2_000_000_500_000_000
    var nextWebOrderLineItemID: UInt64 = 200_000_000_000_000
    private var nextAppTransactionID: UInt64 = 704_000_000_000_000_000
    private var purchaseShapeTurn = 0
    private var signatures = 0
    static let day = AppleTime.millisecondsPerDay
    static let hour = AppleTime.millisecondsPerHour
    private static let purchaseShapes = [
        "jws-line", "envelope-signed-transaction", "notification-v2", "jws-string", "envelope-notification",
        "transaction-info",
    ]

    init(scenario: StoreKit2Scenario, catalog: SyntheticCatalog, chain: SigningChain) {
        self.catalog = catalog
        self.chain = chain
        start = scenario.startDay.epochDay * Self.day
        end = start + Int64(scenario.days) * Self.day
        var root = SeededGenerator(seed: scenario.seed)
        _ = root.split()  // the signing chain's keys come from their own stream (SigningChain)
        rng = root.split()
    }

    // MARK: Accounts and their activity

    /// Simulates `count` ordinary accounts.
    mutating func simulateAccounts(count: Int) throws {
        for index in 0..<count {
            let account = makeAccount(index: index)
            var transactions: [Transaction] = []
            var time = start + rng.nextInt64(in: Self.hour...(3 * Self.day))
            let hasSubscriptions = !catalog.subscriptionsByApp[account.app].isEmpty
            var hasSubscribed = false
            for _ in 0..<rng.nextInt(in: 1...3) where time < end - Self.day {
                let roll = rng.nextUnit()
                if hasSubscriptions && !hasSubscribed && roll < 0.4 {
                    hasSubscribed = true
                    let product = catalog.subscriptionsByApp[account.app][
                        rng.nextInt(below: catalog.subscriptionsByApp[account.app].count)]
                    transactions += try subscribe(account, product: product, at: time)
                } else {
                    let ownables = catalog.ownablesByApp[account.app].filter {
                        catalog.products[$0].kind == .nonConsumable || catalog.products[$0].kind == .nonRenewing
                    }
                    let consumables = catalog.consumablesByApp[account.app]
                    let choices = (roll < 0.75 && !consumables.isEmpty) || ownables.isEmpty ? consumables : ownables
                    guard !choices.isEmpty else { continue }
                    let product = choices[rng.nextInt(below: choices.count)]
                    var transaction = newTransaction(account, product: product, at: time)
                    if catalog.products[product].kind == .consumable && rng.chance(0.2) {
                        transaction.base.quantity = UInt8(rng.nextInt(in: 2...5))
                    }
                    transactions.append(transaction)
                    _ = try deliverPurchase(transaction, account: account, at: time + rng.nextInt64(in: 1_000...9_000))
                }
                time += rng.nextInt64(in: (Self.day / 2)...(2 * Self.day))
            }
            try deliverBackfill(account, transactions: transactions, index: index)
        }
    }

    /// The later records of an account: history pages, batched envelopes, statuses, renewal infos, app transaction.
    mutating func deliverBackfill(_ account: Account, transactions: [Transaction], index: Int) throws {
        guard !transactions.isEmpty else { return }
        let time = end - Self.day + Int64(index % 20) * Self.hour + rng.nextInt64(in: 0...3_000_000)
        if index % 3 == 0 { _ = try historyPages(account, transactions: transactions, at: time) }
        if index % 4 == 1 {
            var tokens: [SignedJSON] = []
            for transaction in transactions { tokens.append(.jws(try signTransaction(transaction, account, at: time))) }
            lines.append(
                envelope(
                    account, at: time, "signed_transactions", .array(tokens), shape: "envelope-signed-transactions"))
        }
        if let subscription = transactions.last(where: { catalog.products[$0.base.product].kind == .autoRenewable }) {
            if index % 2 == 0 {
                _ = try statusesPage(account, subscription, at: time + 60_000)
            } else {
                let renewal = try signRenewalInfo(subscription, account, at: time + 60_000)
                lines.append(
                    envelope(
                        account, at: time + 60_000, "signed_renewal_info", .jws(renewal),
                        shape: "envelope-signed-renewal-info"))
            }
        }
        if index % 5 == 0 { _ = try appTransactionEnvelope(account, at: time + 120_000) }
    }

    mutating func makeAccount(index: Int, known byToken: Bool? = nil) -> Account {
        let number = String(index + 1)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        nextAppTransactionID += UInt64(rng.nextInt(in: 1...997))
        return Account(
            username: "skuser\(padded)@example.com", accountToken: uuid(),
            appTransactionID: String(nextAppTransactionID),
            app: rng.nextInt(below: catalog.apps.count), storefront: Self.storefronts[rng.nextInt(below: 3)],
            isKnownByToken: byToken ?? rng.chance(0.25))
    }

    mutating func newTransaction(_ account: Account, product: Int, at time: Int64) -> Transaction {
        nextTransactionID += UInt64(rng.nextInt(in: 1...40))
        let purchase = time - time % 1000
        let base = SimulatedTransaction(
            transactionID: nextTransactionID, originalTransactionID: nextTransactionID, product: product,
            purchaseMilliseconds: purchase, originalPurchaseMilliseconds: purchase)
        return Transaction(base: base, price: Self.prices[product])
    }

    /// A subscription from `time`: the first period (a free trial now and then) and every renewal before the end.
    mutating func subscribe(_ account: Account, product: Int, at time: Int64) throws -> [Transaction] {
        guard let period = catalog.products[product].period else { return [] }
        var first = newTransaction(account, product: product, at: time)
        nextWebOrderLineItemID += UInt64(rng.nextInt(in: 1...50))
        first.base.webOrderLineItemID = nextWebOrderLineItemID
        first.base.expiresMilliseconds = period.end(after: first.base.purchaseMilliseconds)
        if catalog.products[product].offersTrial && rng.chance(0.4) {
            first.isFreeTrial = true
            first.price = 0
            first.base.isTrialPeriod = true
            first.base.expiresMilliseconds = first.base.purchaseMilliseconds + 7 * Self.day
        }
        var periods = [first]
        _ = try deliverPurchase(first, account: account, at: time + 4_000)
        while let last = periods.last, last.base.expiresMilliseconds < end {
            var renewal = newTransaction(account, product: product, at: last.base.expiresMilliseconds)
            renewal.base.originalTransactionID = first.base.transactionID
            renewal.base.originalPurchaseMilliseconds = first.base.purchaseMilliseconds
            nextWebOrderLineItemID += UInt64(rng.nextInt(in: 1...50))
            renewal.base.webOrderLineItemID = nextWebOrderLineItemID
            renewal.base.expiresMilliseconds = period.end(after: renewal.base.purchaseMilliseconds)
            renewal.isRenewal = true
            periods.append(renewal)
            _ = try notification(
                "DID_RENEW", subtype: nil, renewal, account, at: renewal.base.purchaseMilliseconds + 90_000,
                shape: "notification-v2")
        }
        return periods
    }

    /// Delivers a fresh purchase in the next shape of the rotation; returns the line's index.
    @discardableResult
    mutating func deliverPurchase(_ transaction: Transaction, account: Account, at time: Int64) throws -> Int {
        let shape = Self.purchaseShapes[purchaseShapeTurn % Self.purchaseShapes.count]
        purchaseShapeTurn += 1
        return try deliver(transaction, account: account, at: time, shape: shape)
    }

    /// Delivers `transaction` as one record of `shape` (a purchase-time shape); returns the line's index.
    @discardableResult
    mutating func deliver(
        _ transaction: Transaction, account: Account, at time: Int64, shape: String
    )
        throws -> Int
    {
        let kind = catalog.products[transaction.base.product].kind
        let type =
            kind == .autoRenewable
            ? (transaction.isRenewal ? "DID_RENEW" : "SUBSCRIBED") : "ONE_TIME_CHARGE"
        let subtype = kind == .autoRenewable && !transaction.isRenewal ? "INITIAL_BUY" : nil
        switch shape {
        case "notification-v2", "envelope-notification":
            return try notification(type, subtype: subtype, transaction, account, at: time, shape: shape)
        default:
            let token = try signTransaction(transaction, account, at: time)
            switch shape {
            case "envelope-signed-transaction":
                lines.append(envelope(account, at: time, "signed_transaction", .jws(token), shape: shape))
            case "transaction-info":
                lines.append(
                    Line(
                        part: "server-api", time: time, shape: shape,
                        body: .object([("signedTransactionInfo", .jws(token))])))
            default:
                lines.append(Line(part: "transactions", time: time, shape: shape, body: .jws(token)))
            }
            return lines.count - 1
        }
    }

    /// A V2 notification about `transaction` (bare, or inside an envelope); returns the line's index.
    @discardableResult
    mutating func notification(
        _ type: String, subtype: String?, _ transaction: Transaction, _ account: Account, at time: Int64,
        shape: String
    ) throws -> Int {
        let app = catalog.apps[account.app]
        let isSubscription = catalog.products[transaction.base.product].kind == .autoRenewable
        var data: [(String, SignedJSON)] = [
            ("appAppleId", .integer(Int64(app.appleID))), ("bundleId", .string(app.bundleID)),
            ("bundleVersion", .string(String(app.buildNumber))), ("environment", .string("Production")),
            ("signedTransactionInfo", .jws(try signTransaction(transaction, account, at: time))),
        ]
        if isSubscription {
            data.append(("signedRenewalInfo", .jws(try signRenewalInfo(transaction, account, at: time))))
            data.append(("status", .integer(transaction.base.expiresMilliseconds > time ? 1 : 2)))
        }
        var payload: [(String, SignedJSON)] = [("notificationType", .string(type))]
        if let subtype { payload.append(("subtype", .string(subtype))) }
        payload += [
            ("notificationUUID", .string(uuid())), ("data", .object(data)), ("version", .string("2.0")),
            ("signedDate", .integer(time)),
        ]
        let token = try sign(
            .object(payload), kind: "notification", transactionID: nil, originalTransactionID: nil, at: time)
        sentNotifications.append((token, time, account.app))
        let body = SignedJSON.object([("signedPayload", .jws(token))])
        if shape == "envelope-notification" {
            lines.append(envelope(account, at: time + 2_000, "notification", body, shape: shape))
        } else {
            lines.append(Line(part: "notifications", time: time + 2_000, shape: shape, body: body))
        }
        return lines.count - 1
    }

    /// Transaction history pages of at most four transactions each (`revision`, `hasMore`); returns their indexes.
    mutating func historyPages(
        _ account: Account, transactions: [Transaction], at time: Int64, underResponse: Bool = false
    ) throws -> [Int] {
        let app = catalog.apps[account.app]
        var indexes: [Int] = []
        let pages = stride(from: 0, to: transactions.count, by: 4).map {
            Array(transactions[$0..<min($0 + 4, transactions.count)])
        }
        for (number, page) in pages.enumerated() {
            let pageTime = time + Int64(number) * 1_500
            var tokens: [SignedJSON] = []
            for transaction in page { tokens.append(.jws(try signTransaction(transaction, account, at: pageTime))) }
            let body = SignedJSON.object([
                ("revision", .string(hex(count: 24))), ("bundleId", .string(app.bundleID)),
                ("appAppleId", .integer(Int64(app.appleID))), ("environment", .string("Production")),
                ("hasMore", .bool(number < pages.count - 1)), ("signedTransactions", .array(tokens)),
            ])
            lines.append(
                Line(
                    part: "server-api", time: pageTime,
                    shape: underResponse ? "transaction-history-under-response" : "transaction-history",
                    body: underResponse ? .object([("response", body)]) : body))
            indexes.append(lines.count - 1)
        }
        return indexes
    }

    /// All subscription statuses for the group of `latest`.
    mutating func statusesPage(_ account: Account, _ latest: Transaction, at time: Int64) throws -> Int {
        let app = catalog.apps[account.app]
        let product = catalog.products[latest.base.product]
        let last = SignedJSON.object([
            ("originalTransactionId", .string(String(latest.base.originalTransactionID))),
            ("status", .integer(latest.base.expiresMilliseconds > time ? 1 : 2)),
            ("signedTransactionInfo", .jws(try signTransaction(latest, account, at: time))),
            ("signedRenewalInfo", .jws(try signRenewalInfo(latest, account, at: time))),
        ])
        let body = SignedJSON.object([
            ("environment", .string("Production")), ("bundleId", .string(app.bundleID)),
            ("appAppleId", .integer(Int64(app.appleID))),
            (
                "data",
                .array([
                    .object([
                        ("subscriptionGroupIdentifier", .string(String(product.groupID ?? 0))),
                        ("lastTransactions", .array([last])),
                    ])
                ])
            ),
        ])
        lines.append(Line(part: "server-api", time: time, shape: "subscription-statuses", body: body))
        return lines.count - 1
    }

    mutating func appTransactionEnvelope(_ account: Account, at time: Int64) throws -> Int {
        let app = catalog.apps[account.app]
        let payload = SignedJSON.object([
            ("receiptType", .string("Production")), ("appAppleId", .integer(Int64(app.appleID))),
            ("bundleId", .string(app.bundleID)), ("applicationVersion", .string(String(app.buildNumber))),
            ("receiptCreationDate", .integer(time)), ("requestDate", .integer(time)),
            ("originalPurchaseDate", .integer(start - 90 * Self.day)),
            ("originalApplicationVersion", .string(String(max(1, app.buildNumber - 12)))),
            ("deviceVerification", .string(hex(count: 64))), ("deviceVerificationNonce", .string(uuid())),
            ("originalPlatform", .string("iOS")),
            ("appTransactionId", .string(account.appTransactionID)),
        ])
        let token = try sign(payload, kind: "app-transaction", transactionID: nil, originalTransactionID: nil, at: time)
        lines.append(envelope(account, at: time, "app_transaction", .jws(token), shape: "envelope-app-transaction"))
        return lines.count - 1
    }

    /// The notification-history page: the first notifications sent, each with its delivery attempts.
    mutating func notificationHistory() {
        // Apple keeps a notification history per app: the page lists the first app's notifications only.
        guard let app = sentNotifications.first?.app else { return }
        let page = sentNotifications.filter { $0.app == app }.prefix(5)
        guard let last = page.last else { return }
        let entries: [SignedJSON] = page.map { sent in
            .object([
                ("signedPayload", .jws(sent.token)),
                (
                    "sendAttemptResults",
                    .array([
                        .object([
                            ("attemptDate", .integer(sent.time + 1_000)), ("sendAttemptResult", .string("SUCCESS")),
                        ])
                    ])
                ),
            ])
        }
        lines.append(
            Line(
                part: "server-api", time: last.time + Self.day / 2, shape: "notification-history",
                body: .object([
                    ("notificationHistory", .array(entries)), ("hasMore", .bool(false)),
                    ("paginationToken", .string(uuid())),
                ])))
    }

    // MARK: Payloads and signing

    /// JWSTransactionDecodedPayload as Apple writes it, as of `time` (a later revocation is not shown yet).
    func transactionPayload(
        _ transaction: Transaction, _ account: Account, at time: Int64, environment: String = "Production"
    ) -> SignedJSON {
        let base = transaction.base
        let product = catalog.products[base.product]
        let isSubscription = product.kind == .autoRenewable
        var members: [(String, SignedJSON)] = [
            ("transactionId", .string(String(base.transactionID))),
            ("originalTransactionId", .string(String(base.originalTransactionID))),
        ]
        if isSubscription { members.append(("webOrderLineItemId", .string(String(base.webOrderLineItemID)))) }
        members += [
            ("bundleId", .string(catalog.apps[product.appIndex].bundleID)), ("productId", .string(product.productID)),
        ]
        if isSubscription, let group = product.groupID {
            members.append(("subscriptionGroupIdentifier", .string(String(group))))
        }
        members += [
            ("purchaseDate", .integer(base.purchaseMilliseconds)),
            ("originalPurchaseDate", .integer(base.originalPurchaseMilliseconds)),
        ]
        if isSubscription { members.append(("expiresDate", .integer(base.expiresMilliseconds))) }
        members += [
            ("quantity", .integer(Int64(base.quantity))), ("type", .string(Self.typeName(product.kind))),
            ("appAccountToken", .string(account.accountToken)),
            ("inAppOwnershipType", .string(base.isFamilyShared ? "FAMILY_SHARED" : "PURCHASED")),
            ("signedDate", .integer(time)),
        ]
        if base.cancellationMilliseconds != 0 && base.cancellationMilliseconds <= time {
            if let type = transaction.revocationType {
                members += [
                    ("revocationReason", .integer(0)), ("revocationDate", .integer(base.cancellationMilliseconds)),
                    ("revocationType", .string(type)),
                ]
                if let percentage = transaction.revocationPercentage {
                    members.append(("revocationPercentage", .integer(percentage)))
                }
            }
            if base.isUpgraded { members.append(("isUpgraded", .bool(true))) }
        }
        if transaction.isFreeTrial {
            members += [
                ("offerType", .integer(1)), ("offerDiscountType", .string("FREE_TRIAL")),
                ("offerPeriod", .string("P1W")),
            ]
        }
        members += [
            ("environment", .string(environment)),
            ("transactionReason", .string(transaction.isRenewal ? "RENEWAL" : "PURCHASE")),
            ("storefront", .string(account.storefront.code)), ("storefrontId", .string(account.storefront.id)),
        ]
        if let price = transaction.price {
            members += [("price", .integer(price)), ("currency", .string(account.storefront.currency))]
        }
        members.append(("appTransactionId", .string(account.appTransactionID)))
        return .object(members)
    }

    mutating func signTransaction(
        _ transaction: Transaction, _ account: Account, at time: Int64
    ) throws
        -> SignedToken
    {
        try sign(
            transactionPayload(transaction, account, at: time), kind: "transaction",
            transactionID: String(transaction.base.transactionID),
            originalTransactionID: String(transaction.base.originalTransactionID), at: time)
    }

    /// JWSRenewalInfoDecodedPayload for the subscription `latest` belongs to.
    mutating func signRenewalInfo(
        _ latest: Transaction, _ account: Account, at time: Int64
    ) throws
        -> SignedToken
    {
        let product = catalog.products[latest.base.product]
        let payload = SignedJSON.object([
            ("originalTransactionId", .string(String(latest.base.originalTransactionID))),
            ("autoRenewProductId", .string(product.productID)), ("productId", .string(product.productID)),
            ("autoRenewStatus", .integer(1)), ("signedDate", .integer(time)), ("environment", .string("Production")),
            ("recentSubscriptionStartDate", .integer(latest.base.originalPurchaseMilliseconds)),
            ("renewalDate", .integer(latest.base.expiresMilliseconds)),
            ("renewalPrice", .integer(Self.prices[latest.base.product])),
            ("currency", .string(account.storefront.currency)), ("appTransactionId", .string(account.appTransactionID)),
            ("appAccountToken", .string(account.accountToken)),
        ])
        return try sign(
            payload, kind: "renewal-info", transactionID: nil,
            originalTransactionID: String(latest.base.originalTransactionID), at: time)
    }

    /// Signs a genuine payload: with the current leaf, or — for some records signed while it was still valid — the
    /// retired one (the "expired since" trap).
    mutating func sign(
        _ payload: SignedJSON, kind: String, transactionID: String?, originalTransactionID: String?, at time: Int64
    ) throws -> SignedToken {
        signatures += 1
        let isRetired = time < chain.retiredUntil - Self.day && signatures % 4 == 0
        let identity = isRetired ? chain.retired : chain.current
        let environment =
            payload["environment"]?.stringValue ?? payload["data"]?["environment"]?.stringValue
            ?? payload["receiptType"]?.stringValue ?? ""
        return SignedToken(
            text: try chain.sign(payload, by: identity), payload: payload,
            facts: SignedManifest.Facts(
                kind: kind, transactionID: transactionID, originalTransactionID: originalTransactionID,
                environment: environment, signedDate: time, signer: identity.name, outcome: "verified"))
    }

    // MARK: Helpers

    func envelope(
        _ account: Account, at time: Int64, _ key: String, _ value: SignedJSON, shape: String,
        part: String = "transactions"
    ) -> Line {
        var members: [(String, SignedJSON)] = [("recorded_at", .string(Self.rfc3339(time)))]
        if account.isKnownByToken {
            members.append(("app_account_token", .string(account.accountToken)))
        } else {
            members.append(("application_username", .string(account.username)))
        }
        members.append((key, value))
        return Line(part: part, time: time, shape: shape, body: .object(members))
    }

    static func typeName(_ kind: SyntheticCatalog.Kind) -> String {
        switch kind {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing, .freeSubscription: "Non-Renewing Subscription"
        }
    }

    static func rfc3339(_ milliseconds: Int64) -> String {
        let fields = AppleTime.fields(milliseconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "\(fields.year)-\(two(fields.month))-\(two(fields.day))T\(two(fields.hour)):\(two(fields.minute)):"
            + "\(two(fields.second))Z"
    }

    mutating func hex(count: Int) -> String {
        String(decoding: (0..<count).map { _ in LowercaseHex.digits[rng.nextInt(below: 16)] }, as: UTF8.self)
    }

    /// A lowercase version-4 UUID, as `appAccountToken` and `notificationUUID` are written.
    mutating func uuid() -> String {
        var digits = Array(hex(count: 32))
        digits[12] = "4"
        digits[16] = Array("89ab")[rng.nextInt(below: 4)]
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
            text.append(digit)
        }
        return text
    }
}

extension SignedJSON {
    /// The string, when this is one.
    var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
