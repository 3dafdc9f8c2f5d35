internal import AppStoreFormats

extension FraudPlan {
    /// One instance of every rule's pattern.
    mutating func plantPatterns() {
        // many-store-accounts: one of our accounts buys the same unlock from five App Store accounts in a week.
        let mallory = "mallory@example.com"
        for (day, hour) in [(2, 10), (2, 14), (3, 9), (5, 18), (8, 11)] {
            let entry = PlantedEntry("com.example.photofx.filterspro", id: newID(), at: at(day: day, hour: hour))
            post(mallory, at: at(day: day, hour: hour, minute: 1), response: appReceipt(Self.photoFX, inApp: [entry]))
        }
        expect("one account paying from five App Store accounts", "many-store-accounts", account(mallory), "high")

        // shared-store-account: one recorded App Store account behind three of our accounts.
        let sharedStore = "9000000001"
        var sharedIDs: [String] = []
        for (index, day) in [3, 4, 6].enumerated() {
            let id = newID()
            sharedIDs.append(id)
            let entry = PlantedEntry("com.example.coinquest.coins100", id: id, at: at(day: day, hour: 12))
            post(
                "share\(index + 1)@example.net", at: at(day: day, hour: 12, minute: 2), storeAccount: sharedStore,
                response: appReceipt(Self.coinQuest, inApp: [entry]))
        }
        expect(
            "one App Store account used by three app accounts", "shared-store-account",
            FraudManifest.Subject(kind: "store-account", key: "sa-" + sharedIDs[0]), "warning")

        // receipt-replay (a): one consumable transaction posted by two accounts.
        let replayed = newID()
        let coins = PlantedEntry("com.example.coinquest.coins550", id: replayed, at: at(day: 4, hour: 8))
        post(
            "replay1@example.org", at: at(day: 4, hour: 8, minute: 1),
            response: transactionReceipt(Self.coinQuest, coins))
        post("replay2@example.org", at: at(day: 4, hour: 9), response: transactionReceipt(Self.coinQuest, coins))
        expect(
            "consumable transaction posted by two accounts", "receipt-replay",
            FraudManifest.Subject(kind: "transaction", key: replayed), "high")

        // receipt-replay (c): one receipt, byte for byte, from two accounts (its consumable fires as (a) too).
        let copied = newID()
        let credits = PlantedEntry("com.example.photofx.credits10", id: copied, at: at(day: 5, hour: 7))
        let copiedData = "UExBTlRFRC1DT1BJRUQtUkVDRUlQVA=="
        for (index, hour) in [7, 13].enumerated() {
            post(
                "replay\(index + 3)@example.org", at: at(day: 5, hour: hour, minute: 5), receiptData: copiedData,
                response: appReceipt(Self.photoFX, inApp: [credits]))
        }
        let digest = LowercaseHex.string(ContentHash.sha256(Array(copiedData.utf8)))
        expect(
            "byte-identical receipt posted by two accounts", "receipt-replay",
            FraudManifest.Subject(kind: "receipt-data", key: digest), "high")
        expect(
            "consumable of the copied receipt, posted by two accounts", "receipt-replay",
            FraudManifest.Subject(kind: "transaction", key: copied), "high")

        // receipt-replay (b): one non-consumable's original transaction posted by three accounts in a week; the
        // App Store account behind it is then shared by three app accounts as well.
        let unlocked = newID()
        let removeAds = PlantedEntry("com.example.coinquest.removeads", id: unlocked, at: at(day: 1, hour: 20))
        for (index, day) in [2, 5, 7].enumerated() {
            post(
                "replay\(index + 5)@example.org", at: at(day: day, hour: 15),
                response: appReceipt(Self.coinQuest, inApp: [removeAds]))
        }
        expect(
            "non-consumable posted by three accounts in a week", "receipt-replay",
            FraudManifest.Subject(kind: "transaction", key: unlocked), "high")
        expect(
            "the replayed non-consumable's App Store account behind three app accounts", "shared-store-account",
            FraudManifest.Subject(kind: "store-account", key: "sa-" + unlocked), "warning")

        // invalid-receipts: five receipts Apple could not authenticate within two hours.
        let forger = "forger@example.com"
        for minute in [0, 20, 45, 70, 110] {
            post(forger, at: at(day: 5, hour: 1, minute: minute), response: errorResponse(21003))
        }
        expect("five unauthenticated receipts in two hours", "invalid-receipts", account(forger), "high")

        // foreign-app: a valid receipt of an app that is not ours.
        let clone = post(
            "cloner@example.com", at: at(day: 6, hour: 3),
            response: appReceipt(
                (bundle: "com.evil.clone", appItem: "999999999"),
                inApp: [PlantedEntry("com.evil.clone.gems", id: newID(), at: at(day: 6, hour: 2))]))
        expect("receipt of an app not in the catalog", "foreign-app", receipt(line: clone), "high")

        // unknown-product: our app, a product the catalog does not list.
        let unknownID = newID()
        post(
            "unknownprod@example.com", at: at(day: 6, hour: 5),
            response: appReceipt(
                Self.photoFX,
                inApp: [PlantedEntry("com.example.photofx.hackedpack", id: unknownID, at: at(day: 6, hour: 4))]))
        expect(
            "product not in the catalog", "unknown-product",
            FraudManifest.Subject(kind: "transaction", key: unknownID), "warning")

        // sandbox-in-production: a sandbox receipt from an account that is not a tester.
        let leak = post(
            "leaker@example.com", at: at(day: 7, hour: 6),
            response: appReceipt(
                Self.photoFX,
                inApp: [PlantedEntry("com.example.photofx.credits10", id: newID(), at: at(day: 7, hour: 6))],
                environment: "Sandbox", receiptType: "ProductionSandbox"))
        expect("sandbox receipt from a non-tester", "sandbox-in-production", receipt(line: leak), "warning")

        // transaction-conflict: one transaction id seen with two products.
        let conflicted = newID()
        var first = PlantedEntry("com.example.coinquest.coins100", id: conflicted, at: at(day: 6, hour: 9))
        post(
            "conflict@example.com", at: at(day: 6, hour: 9, minute: 1),
            response: transactionReceipt(Self.coinQuest, first))
        first.productID = "com.example.coinquest.coins1200"
        post("conflict@example.com", at: at(day: 6, hour: 10), response: transactionReceipt(Self.coinQuest, first))
        expect(
            "one transaction id with two products", "transaction-conflict",
            FraudManifest.Subject(kind: "transaction", key: conflicted), "high")

        // refund-abuse: three purchases from one App Store account, all refunded within a month.
        let refunder = "refunder@example.com"
        var coinQuestItems: [PlantedEntry] = []
        for (product, day) in [("com.example.coinquest.removeads", 1), ("com.example.coinquest.levelpack1", 9)] {
            var entry = PlantedEntry(product, id: newID(), at: at(day: day, hour: 16))
            entry.cancellationMilliseconds = at(day: day + 3, hour: 10)
            entry.cancellationReason = 0
            coinQuestItems.append(entry)
        }
        post(refunder, at: at(day: 20, hour: 10), response: appReceipt(Self.coinQuest, inApp: coinQuestItems))
        var filters = PlantedEntry("com.example.photofx.filterspro", id: newID(), at: at(day: 12, hour: 16))
        filters.cancellationMilliseconds = at(day: 14, hour: 9)
        filters.cancellationReason = 0
        post(refunder, at: at(day: 20, hour: 11), response: appReceipt(Self.photoFX, inApp: [filters]))
        expect("three refunds within a month", "refund-abuse", account(refunder), "high")

        // purchase-velocity: four coin packs within forty minutes.
        let speedy = "speedy@example.com"
        for (index, product) in ["coins100", "coins100", "coins550", "coins1200"].enumerated() {
            let time = at(day: 7, hour: 21, minute: index * 13)
            post(
                speedy, at: time + 30_000,
                response: appReceipt(
                    Self.coinQuest, inApp: [PlantedEntry("com.example.coinquest." + product, id: newID(), at: time)]))
        }
        expect("four purchases within an hour", "purchase-velocity", account(speedy), "warning")

        // trial-cycling: two free trials of one subscription group from two App Store accounts.
        let trialist = "trialist@example.com"
        for (product, day) in [("com.example.dailynews.weekly", 1), ("com.example.dailynews.monthly", 20)] {
            var trial = PlantedEntry(product, id: newID(), at: at(day: day, hour: 8))
            trial.isTrialPeriod = true
            trial.subscriptionGroup = Self.dailyNewsGroup
            trial.expiresMilliseconds = at(day: day + 7, hour: 8)
            post(
                trialist, at: at(day: day, hour: 8, minute: 1),
                response: appReceipt(
                    Self.dailyNews, inApp: [trial], latest: [trial],
                    withPendingRenewal: true))
        }
        expect("two free trials in one group", "trial-cycling", account(trialist), "warning")

        // forged-fields: status 0 with a transaction id no App Store writes.
        let forged = post(
            "forged@example.com", at: at(day: 8, hour: 2),
            response: appReceipt(
                Self.coinQuest,
                inApp: [PlantedEntry("com.example.coinquest.coins100", id: "1000000abc", at: at(day: 8, hour: 1))]))
        expect("non-decimal transaction id", "forged-fields", receipt(line: forged), "high")
    }
}
