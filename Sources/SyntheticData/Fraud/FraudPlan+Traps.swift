extension FraudPlan {
    /// The false positives of docs/fraud-rules.md: honest behaviour that looks like a pattern and must not be flagged.
    mutating func plantTraps() {
        // A whale: two coin packs every day for a month, from one (recorded) App Store account.
        let whale = "whale@example.com"
        var whaleFirst: String?
        for day in 0..<30 {
            for hour in [9, 20] {
                let id = newID()
                whaleFirst = whaleFirst ?? id
                post(
                    whale, at: at(day: day, hour: hour, minute: 3), storeAccount: "9100000001",
                    response: appReceipt(
                        Self.coinQuest,
                        inApp: [PlantedEntry("com.example.coinquest.coins1200", id: id, at: at(day: day, hour: hour))]))
            }
        }
        trap(
            "a whale buying every day",
            [account(whale), FraudManifest.Subject(kind: "store-account", key: "sa-" + (whaleFirst ?? ""))])

        // Personal and work Apple IDs: two App Store accounts, hours apart, for one of our accounts.
        let twoIDs = "two.apple.ids@example.com"
        post(
            twoIDs, at: at(day: 3, hour: 10, minute: 1),
            response: appReceipt(
                Self.coinQuest,
                inApp: [PlantedEntry("com.example.coinquest.removeads", id: newID(), at: at(day: 3, hour: 10))]))
        var monthly = PlantedEntry("com.example.dailynews.monthly", id: newID(), at: at(day: 3, hour: 12))
        monthly.subscriptionGroup = Self.dailyNewsGroup
        monthly.expiresMilliseconds = at(day: 33, hour: 12)
        post(
            twoIDs, at: at(day: 3, hour: 12, minute: 1),
            response: appReceipt(Self.dailyNews, inApp: [monthly], latest: [monthly]))
        trap("personal and work Apple IDs", [account(twoIDs)])

        // A consumable-only buyer on iOS 6 receipts: six coin packs, each its own unconfirmed cluster.
        let legacy = "coins.ios6@example.com"
        for day in [1, 3, 4, 6, 8, 10] {
            post(
                legacy, at: at(day: day, hour: 19, minute: 1),
                response: transactionReceipt(
                    Self.coinQuest,
                    PlantedEntry("com.example.coinquest.coins100", id: newID(), at: at(day: day, hour: 19))))
        }
        trap("a consumable-only buyer on iOS 6 receipts", [account(legacy)])

        // Family sharing: two subscriptions the organizer shared (and later had refunded) next to one own purchase.
        let family = "family.member@example.com"
        let own = PlantedEntry("com.example.photofx.filterspro", id: newID(), at: at(day: 4, hour: 9))
        var shared: [PlantedEntry] = []
        for (product, day) in [("com.example.photofx.pro.monthly", 2), ("com.example.photofx.pro.yearly", 6)] {
            var entry = PlantedEntry(product, id: newID(), at: at(day: day, hour: 7))
            entry.ownershipType = "FAMILY_SHARED"
            entry.subscriptionGroup = Self.photoFXGroup
            entry.expiresMilliseconds = at(day: day + 30, hour: 7)
            entry.cancellationMilliseconds = at(day: day + 5, hour: 7)
            entry.cancellationReason = 0
            shared.append(entry)
        }
        var ownEntry = own
        ownEntry.ownershipType = "PURCHASED"
        post(
            family, at: at(day: 15, hour: 9),
            response: appReceipt(Self.photoFX, inApp: [ownEntry] + shared))
        trap(
            "family-shared purchases (refunded by the organizer)",
            [account(family)] + shared.map { FraudManifest.Subject(kind: "transaction", key: $0.transactionID) })

        // Upgrades: weekly (trial) → monthly → yearly; the upgraded periods carry cancellation dates.
        let upgrader = "upgrader@example.com"
        let original = newID()
        var periods: [PlantedEntry] = []
        for (index, (product, day, length, upgradedOn)) in [
            ("com.example.dailynews.weekly", 1, 7, nil), ("com.example.dailynews.weekly", 8, 7, 10),
            ("com.example.dailynews.monthly", 10, 30, 12), ("com.example.dailynews.yearly", 12, 365, nil),
        ].enumerated() {
            var entry = PlantedEntry(product, id: index == 0 ? original : newID(), at: at(day: day, hour: 6))
            entry.originalTransactionID = original
            entry.isTrialPeriod = index == 0
            entry.subscriptionGroup = Self.dailyNewsGroup
            entry.expiresMilliseconds = at(day: day + length, hour: 6)
            if let upgradedOn {
                entry.isUpgraded = true
                entry.cancellationMilliseconds = at(day: upgradedOn, hour: 6)
            }
            periods.append(entry)
        }
        post(
            upgrader, at: at(day: 12, hour: 6, minute: 2),
            response: appReceipt(
                Self.dailyNews, inApp: periods, latest: periods,
                withPendingRenewal: true))
        trap("two upgrades in one subscription", [account(upgrader)])

        // A tester on the allowlist posting a sandbox receipt.
        let tester = "app.review.tester@example.com"
        allowTester(tester)
        let testLine = post(
            tester, at: at(day: 4, hour: 16),
            response: appReceipt(
                Self.photoFX,
                inApp: [PlantedEntry("com.example.photofx.credits10", id: newID(), at: at(day: 4, hour: 16))],
                environment: "Sandbox", receiptType: "ProductionSandbox"))
        trap("a tester's sandbox receipt", [account(tester), receipt(line: testLine)])

        // Restore after a new login: the second account restores the first one's purchase a week later.
        let bought = newID()
        let purchase = PlantedEntry("com.example.photofx.filterspro", id: bought, at: at(day: 2, hour: 11))
        post(
            "restore.old@example.com", at: at(day: 2, hour: 11, minute: 1),
            response: appReceipt(Self.photoFX, inApp: [purchase]))
        var restored = PlantedEntry("com.example.photofx.filterspro", id: newID(), at: at(day: 9, hour: 18))
        restored.originalTransactionID = bought
        post(
            "restore.new@example.com", at: at(day: 9, hour: 18, minute: 1),
            response: appReceipt(Self.photoFX, inApp: [restored]))
        trap(
            "a restore after a new login",
            [
                account("restore.old@example.com"), account("restore.new@example.com"),
                FraudManifest.Subject(kind: "transaction", key: bought),
            ])
    }
}
