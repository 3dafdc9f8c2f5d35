/// The lines our server recorded for a `MonthEndYear`: one envelope (`application_username`, `signed_transaction`)
/// per signed copy of a transaction, in the order Apple signed them. A purchase is signed when bought; a refund is a
/// later copy with `revocationDate`; a reversed refund a copy later still without it (what Apple says last stands).
enum MonthEndTransactions {
    private static let hour: Int64 = 3_600_000

    static func lines(_ year: MonthEndYear, chain: SigningChain) throws -> [String] {
        var copies: [(signed: Int64, order: Int, line: String)] = []
        for (index, purchase) in year.purchases.enumerated() {
            let bought = purchase.day * AppleTime.millisecondsPerDay + 17 * hour + Int64(purchase.minute) * 60_000
            let payload = transaction(purchase, bought: bought)
            var versions: [(Int64, SignedJSON)] = [(bought + 60_000, payload)]
            if let refund = purchase.refundDay {
                let refunded = refund * AppleTime.millisecondsPerDay + 18 * hour
                versions.append(
                    (
                        refunded + 60_000,
                        payload.setting("revocationDate", to: .integer(refunded))
                            .setting("revocationReason", to: .integer(0))
                    ))
            }
            if let reversal = purchase.reversalDay {
                versions.append((reversal * AppleTime.millisecondsPerDay + 18 * hour, payload))
            }
            // Every account buys once: the year is about money, and must trip no fraud rule by its volume.
            let username = "month-end-buyer-\(index + 1)@example.com"
            for (signed, version) in versions {
                let jws = try chain.sign(version.setting("signedDate", to: .integer(signed)), by: chain.current)
                let envelope = SignedJSON.object([
                    ("application_username", .string(username)), ("signed_transaction", .string(jws)),
                ])
                copies.append((signed, copies.count, envelope.text))
            }
        }
        return copies.sorted { ($0.signed, $0.order) < ($1.signed, $1.order) }.map(\.line)
    }

    private static func transaction(_ purchase: MonthEndYear.Purchase, bought: Int64) -> SignedJSON {
        let shop = MonthEndYear.storefronts[purchase.storefront]
        return .object([
            ("transactionId", .string(purchase.id)), ("originalTransactionId", .string(purchase.id)),
            ("bundleId", .string(MonthEndYear.appBundleID)), ("productId", .string(MonthEndYear.productID)),
            ("purchaseDate", .integer(bought)), ("originalPurchaseDate", .integer(bought)),
            ("quantity", .integer(1)), ("type", .string("Consumable")),
            ("inAppOwnershipType", .string("PURCHASED")), ("environment", .string("Production")),
            ("transactionReason", .string("PURCHASE")), ("storefront", .string(shop.code)),
            ("storefrontId", .string(shop.storefrontID)),
            // StoreKit 2 prices are milliunits of the storefront's currency.
            ("price", .integer(Int64(shop.priceCents) * 10)), ("currency", .string(shop.currency)),
        ])
    }
}
