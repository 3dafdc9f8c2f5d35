/// The apps and products the generated receipts are for, and their `catalog.json` (docs/inputs.md, "The catalog").
struct SyntheticCatalog: Sendable {
    /// What kind of in-app purchase a product is; `rawValue` is the catalog's `type` spelling.
    enum Kind: String, Sendable {
        case consumable
        case nonConsumable = "non-consumable"
        case autoRenewable = "auto-renewable"
        case nonRenewing = "non-renewing"
        case freeSubscription = "free-subscription"
    }

    /// An auto-renewable subscription's billing period.
    enum Period: Sendable {
        case week
        case month
        case year

        /// When a period starting at `start` ends.
        func end(after start: Int64) -> Int64 {
            switch self {
            case .week: start + 7 * AppleTime.millisecondsPerDay
            case .month: AppleTime.adding(months: 1, to: start)
            case .year: AppleTime.adding(months: 12, to: start)
            }
        }

        /// The sandbox's accelerated length (Apple: a week lasts 3 minutes, a month 5, a year an hour).
        var sandboxMilliseconds: Int64 {
            switch self {
            case .week: 3 * 60_000
            case .month: 5 * 60_000
            case .year: 60 * 60_000
            }
        }
    }

    /// One app.
    struct App: Sendable {
        let bundleID: String
        let appleID: UInt64
        let sku: String
        let name: String
        /// iOS 6 `bvrs` (CFBundleShortVersionString).
        let shortVersion: String
        /// iOS 7 `application_version` (CFBundleVersion).
        let buildNumber: Int
        /// Receipts of this app carry the post-2020 entry fields (`in_app_ownership_type`,
        /// `subscription_group_identifier`, `is_in_intro_offer_period`); the other app's don't, as older receipts.
        let hasModernFields: Bool
        let bundleUTF8: [UInt8]
    }

    /// One in-app product.
    struct Product: Sendable {
        let productID: String
        let appIndex: Int
        let kind: Kind
        let name: String
        /// Apple's numeric id of the product (iOS 6 `item_id`).
        let itemID: UInt64
        let period: Period?
        let groupID: UInt64?
        /// Rank within its subscription group; a higher tier is an upgrade.
        let tier: Int
        let offersTrial: Bool
        let productUTF8: [UInt8]
    }

    let apps: [App]
    let products: [Product]
    /// Product indexes by app and kind, so drawing a product is a lookup.
    let consumablesByApp: [[Int]]
    let ownablesByApp: [[Int]]
    let subscriptionsByApp: [[Int]]

    init(apps: [App], products: [Product]) {
        self.apps = apps
        self.products = products
        var consumables = [[Int]](repeating: [], count: apps.count)
        var ownables = [[Int]](repeating: [], count: apps.count)
        var subscriptions = [[Int]](repeating: [], count: apps.count)
        for (index, product) in products.enumerated() {
            switch product.kind {
            case .consumable: consumables[product.appIndex].append(index)
            case .nonConsumable, .nonRenewing, .freeSubscription: ownables[product.appIndex].append(index)
            case .autoRenewable: subscriptions[product.appIndex].append(index)
            }
        }
        consumablesByApp = consumables
        ownablesByApp = ownables
        subscriptionsByApp = subscriptions
    }

    /// Three apps, fourteen products: a game with coins (consumables, iOS 6 era), a news app with a subscription
    /// group and a non-renewing pass, a photo app with a pro subscription.
    static let standard: SyntheticCatalog = {
        func app(
            _ bundle: String, _ appleID: UInt64, _ sku: String, _ name: String, _ version: String, _ build: Int,
            modern: Bool
        ) -> App {
            App(
                bundleID: bundle, appleID: appleID, sku: sku, name: name, shortVersion: version, buildNumber: build,
                hasModernFields: modern, bundleUTF8: Array(bundle.utf8))
        }
        var itemID: UInt64 = 812_345_700
        func product(
            _ id: String, _ app: Int, _ kind: Kind, _ name: String, period: Period? = nil,
            group: UInt64? = nil, tier: Int = 0, trial: Bool = false
        ) -> Product {
            itemID += 137
            return Product(
                productID: id, appIndex: app, kind: kind, name: name, itemID: itemID, period: period,
                groupID: group, tier: tier, offersTrial: trial, productUTF8: Array(id.utf8))
        }
        let apps = [
            app("com.example.coinquest", 812_345_671, "COINQUEST1", "Coin Quest", "1.4", 140, modern: false),
            app("com.example.dailynews", 823_456_782, "DAILYNEWS1", "Daily News", "3.2", 320, modern: true),
            app("com.example.photofx", 834_567_893, "PHOTOFX1", "PhotoFX", "2.0.1", 201, modern: true),
        ]
        let news: UInt64 = 20_667_927
        let photo: UInt64 = 20_667_931
        let products = [
            product("com.example.coinquest.coins100", 0, .consumable, "100 coins"),
            product("com.example.coinquest.coins550", 0, .consumable, "550 coins"),
            product("com.example.coinquest.coins1200", 0, .consumable, "1200 coins"),
            product("com.example.coinquest.removeads", 0, .nonConsumable, "Remove ads"),
            product("com.example.coinquest.levelpack1", 0, .nonConsumable, "Level pack 1"),
            product(
                "com.example.dailynews.weekly", 1, .autoRenewable, "Weekly", period: .week, group: news,
                tier: 1, trial: true),
            product(
                "com.example.dailynews.monthly", 1, .autoRenewable, "Monthly", period: .month, group: news,
                tier: 2, trial: true),
            product(
                "com.example.dailynews.yearly", 1, .autoRenewable, "Yearly", period: .year, group: news,
                tier: 3),
            product("com.example.dailynews.archive30", 1, .nonRenewing, "30-day archive pass"),
            product("com.example.dailynews.newsletter", 1, .freeSubscription, "Free newsletter"),
            product("com.example.photofx.filterspro", 2, .nonConsumable, "Pro filters"),
            product("com.example.photofx.credits10", 2, .consumable, "10 export credits"),
            product(
                "com.example.photofx.pro.monthly", 2, .autoRenewable, "Pro monthly", period: .month,
                group: photo, tier: 1, trial: true),
            product(
                "com.example.photofx.pro.yearly", 2, .autoRenewable, "Pro yearly", period: .year, group: photo,
                tier: 2),
        ]
        return SyntheticCatalog(apps: apps, products: products)
    }()

    /// `catalog.json`: one app or product per line, so a diff of two catalogs reads well.
    func jsonBytes() -> [UInt8] {
        var writer = JSONByteWriter(capacity: 4096)
        writer.beginObject()
        writer.indentedArray("apps", apps) { writer, app in
            writer.beginObject()
            writer.key("bundle_id")
            writer.string(app.bundleID)
            writer.key("apple_id")
            writer.quotedNumber(app.appleID)
            writer.key("sku")
            writer.string(app.sku)
            writer.key("name")
            writer.string(app.name)
            writer.endObject()
        }
        writer.indentedArray("products", products) { writer, product in
            writer.beginObject()
            writer.key("product_id")
            writer.string(product.productID)
            writer.key("bundle_id")
            writer.string(apps[product.appIndex].bundleID)
            writer.key("type")
            writer.string(product.kind.rawValue)
            writer.key("name")
            writer.string(product.name)
            writer.endObject()
        }
        writer.raw("\n")
        writer.endObject()
        writer.raw("\n")
        return writer.bytes
    }
}
