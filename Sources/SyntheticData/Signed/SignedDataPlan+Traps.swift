/// The traps of the signed data: records that must verify and must not be flagged.
extension SignedDataPlan {
    /// The records that must verify and must not be flagged (docs/decisions.md, "Signed data"; issue 11).
    mutating func plantTraps(firstAccountIndex: Int) throws {
        var index = firstAccountIndex
        let news = 1
        let photo = 2
        try plantThreeWays(&index, app: news)
        try plantUpgrade(&index, app: news)
        try plantFamilyShared(&index, app: photo)
        try plantProratedRefund(&index, app: photo)
        try plantRefundRequests(&index, app: photo, product: product("com.example.photofx.credits10"))
    }

    /// The catalog index of product `id`.
    private func product(_ id: String) -> Int {
        catalog.products.firstIndex { $0.productID == id } ?? 0
    }

    /// One purchase, three deliveries, one account.
    private mutating func plantThreeWays(_ index: inout Int, app news: Int) throws {
        let threeWays = nextAccount(&index, app: news)
        let archive = newTransaction(
            threeWays, product: product("com.example.dailynews.archive30"), at: start + Self.day)
        let threeWayLines =
            [
                try deliver(
                    archive, account: threeWays, at: archive.base.purchaseMilliseconds + 3_000,
                    shape: "envelope-signed-transaction"),
                try deliver(
                    archive, account: threeWays, at: archive.base.purchaseMilliseconds + 5_000,
                    shape: "envelope-notification"),
            ] + (try historyPages(threeWays, transactions: [archive], at: end - 6 * Self.hour))
        traps.append(
            TrapRecord(
                trap: "three-ways",
                description: "one transaction delivered as a JWS envelope, a V2 notification "
                    + "and a history page by the same account: one transaction, not a replay",
                transactionIDs: [String(archive.base.transactionID)], lines: threeWayLines))
    }

    /// An upgrade: weekly to monthly within the group; the weekly period is upgraded, not refunded.
    private mutating func plantUpgrade(_ index: inout Int, app news: Int) throws {
        let upgrader = nextAccount(&index, app: news, byToken: true)
        var weekly = newTransaction(
            upgrader, product: product("com.example.dailynews.weekly"), at: start + Self.day / 3)
        nextWebOrderLineItemID += 7
        weekly.base.webOrderLineItemID = nextWebOrderLineItemID
        weekly.base.expiresMilliseconds = weekly.base.purchaseMilliseconds + 7 * Self.day
        var upgradeLines = [
            try deliver(
                weekly, account: upgrader, at: weekly.base.purchaseMilliseconds + 2_000, shape: "notification-v2")
        ]
        let upgradeTime = weekly.base.purchaseMilliseconds + 2 * Self.day + 3_600_000
        var monthly = newTransaction(upgrader, product: product("com.example.dailynews.monthly"), at: upgradeTime)
        monthly.base.originalTransactionID = weekly.base.transactionID
        monthly.base.originalPurchaseMilliseconds = weekly.base.purchaseMilliseconds
        nextWebOrderLineItemID += 7
        monthly.base.webOrderLineItemID = nextWebOrderLineItemID
        monthly.base.expiresMilliseconds = AppleTime.adding(months: 1, to: monthly.base.purchaseMilliseconds)
        weekly.base.isUpgraded = true
        weekly.base.cancellationMilliseconds = monthly.base.purchaseMilliseconds
        upgradeLines.append(
            try notification(
                "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE", monthly, upgrader, at: upgradeTime + 30_000,
                shape: "notification-v2"))
        let later = end - 5 * Self.hour
        upgradeLines += try historyPages(upgrader, transactions: [weekly, monthly], at: later)
        upgradeLines.append(try statusesPage(upgrader, monthly, at: later + 10_000))
        let renewal = try signRenewalInfo(monthly, upgrader, at: later + 20_000)
        lines.append(
            envelope(
                upgrader, at: later + 20_000, "signed_renewal_info", .jws(renewal),
                shape: "envelope-signed-renewal-info"))
        upgradeLines.append(lines.count - 1)
        var batch: [SignedJSON] = []
        for transaction in [weekly, monthly] {
            batch.append(.jws(try signTransaction(transaction, upgrader, at: later + 30_000)))
        }
        lines.append(
            envelope(
                upgrader, at: later + 30_000, "signed_transactions", .array(batch),
                shape: "envelope-signed-transactions"))
        upgradeLines.append(lines.count - 1)
        upgradeLines.append(try appTransactionEnvelope(upgrader, at: later + 40_000))
        traps.append(
            TrapRecord(
                trap: "upgrade", description: "a weekly subscription upgraded to monthly (isUpgraded): not a refund",
                transactionIDs: [String(weekly.base.transactionID), String(monthly.base.transactionID)],
                lines: upgradeLines))
    }

    /// A family-shared grant: never a purchase.
    private mutating func plantFamilyShared(_ index: inout Int, app photo: Int) throws {
        let member = nextAccount(&index, app: photo)
        var shared = newTransaction(
            member, product: product("com.example.photofx.filterspro"), at: start + 2 * Self.day)
        shared.base.isFamilyShared = true
        shared.base.originalPurchaseMilliseconds = start - 40 * Self.day
        shared.price = nil
        let familyLines = [
            try deliver(shared, account: member, at: shared.base.purchaseMilliseconds + 1_000, shape: "jws-string"),
            try deliver(
                shared, account: member, at: shared.base.purchaseMilliseconds + 8_000, shape: "transaction-info"),
        ]
        traps.append(
            TrapRecord(
                trap: "family-shared",
                description: "a purchase shared by a family organizer (FAMILY_SHARED): not a "
                    + "purchase of this account", transactionIDs: [String(shared.base.transactionID)],
                lines: familyLines))
    }

    /// A prorated refund of a yearly subscription: one refund, which counts, but flags nobody.
    private mutating func plantProratedRefund(_ index: inout Int, app photo: Int) throws {
        let refunded = nextAccount(&index, app: photo)
        var yearly = newTransaction(
            refunded, product: product("com.example.photofx.pro.yearly"), at: start + Self.day / 2)
        nextWebOrderLineItemID += 7
        yearly.base.webOrderLineItemID = nextWebOrderLineItemID
        yearly.base.expiresMilliseconds = AppleTime.adding(months: 12, to: yearly.base.purchaseMilliseconds)
        var refundLines = [
            try deliver(yearly, account: refunded, at: yearly.base.purchaseMilliseconds + 2_000, shape: "jws-line")
        ]
        let refundTime = start + 6 * Self.day + 5 * Self.hour
        yearly.base.cancellationMilliseconds = refundTime
        yearly.revocationType = "REFUND_PRORATED"
        yearly.revocationPercentage = 91_780
        refundLines.append(
            try notification(
                "REFUND", subtype: nil, yearly, refunded, at: refundTime + 60_000, shape: "notification-v2"))
        let refundPage = SignedJSON.object([
            ("signedTransactions", .array([.jws(try signTransaction(yearly, refunded, at: end - 4 * Self.hour))])),
            ("revision", .string(hex(count: 24))), ("hasMore", .bool(false)),
        ])
        lines.append(Line(part: "server-api", time: end - 4 * Self.hour, shape: "refund-history", body: refundPage))
        refundLines.append(lines.count - 1)
        refundLines += try historyPages(refunded, transactions: [yearly], at: end - 3 * Self.hour, underResponse: true)
        traps.append(
            TrapRecord(
                trap: "prorated-refund",
                description: "a yearly subscription refunded in part (REFUND_PRORATED): a "
                    + "refund, counted once, and no flag", transactionIDs: [String(yearly.base.transactionID)],
                lines: refundLines))
    }

    /// A refund Apple reversed after the customer's dispute, and a refund request Apple is still waiting on.
    private mutating func plantRefundRequests(_ index: inout Int, app: Int, product: Int) throws {
        let disputed = nextAccount(&index, app: app)
        var credits = newTransaction(disputed, product: product, at: start + Self.day + 3 * Self.hour)
        var reversalLines = [
            try deliver(
                credits, account: disputed, at: credits.base.purchaseMilliseconds + 2_000,
                shape: "envelope-signed-transaction")
        ]
        let refundTime = start + 3 * Self.day + 2 * Self.hour
        credits.base.cancellationMilliseconds = refundTime
        credits.revocationType = "REFUND_FULL"
        reversalLines.append(
            try notification(
                "REFUND", subtype: nil, credits, disputed, at: refundTime + 60_000, shape: "notification-v2"))
        // Apple signs the transaction again without its revocation: what it says last stands.
        credits.base.cancellationMilliseconds = 0
        credits.revocationType = nil
        reversalLines.append(
            try notification(
                "REFUND_REVERSED", subtype: nil, credits, disputed, at: start + 5 * Self.day + 4 * Self.hour,
                shape: "notification-v2"))
        traps.append(
            TrapRecord(
                trap: "reversed-refund",
                description: "a purchase refunded, then the refund reversed (REFUND_REVERSED): a sale and no refund, "
                    + "no flag; its history says both", transactionIDs: [String(credits.base.transactionID)],
                lines: reversalLines))

        let asking = nextAccount(&index, app: app)
        let pack = newTransaction(asking, product: product, at: end - 2 * Self.day)
        let requestLines = [
            try deliver(
                pack, account: asking, at: pack.base.purchaseMilliseconds + 2_000, shape: "envelope-signed-transaction"),
            try notification(
                "CONSUMPTION_REQUEST", subtype: nil, pack, asking, at: end - 6 * Self.hour, shape: "notification-v2"),
        ]
        traps.append(
            TrapRecord(
                trap: "open-consumption-request",
                description: "a refund request Apple waits on (CONSUMPTION_REQUEST): listed with its deadline by the "
                    + "consumption-requests report, no flag", transactionIDs: [String(pack.base.transactionID)],
                lines: requestLines))
    }

    /// A fresh account of `app`.
    private mutating func nextAccount(_ index: inout Int, app: Int, byToken: Bool = false) -> Account {
        let drawn = makeAccount(index: index, known: byToken)
        index += 1
        return Account(
            username: drawn.username, accountToken: drawn.accountToken, appTransactionID: drawn.appTransactionID,
            app: app, storefront: drawn.storefront, isKnownByToken: byToken)
    }
}
