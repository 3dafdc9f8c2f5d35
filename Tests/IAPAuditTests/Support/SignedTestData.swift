import Foundation

@testable import SyntheticData

/// StoreKit 2 records written by hand for tests, signed by the generator's own Apple-shaped chain: a verified
/// transaction needs that chain's root trusted (`rootPath`), a forgery is signed by its impostor or Xcode signer.
final class SignedTestData {
    let chain: SigningChain
    /// The trusted root, written as DER into the temporary directory while this value lives.
    let rootPath: String

    /// 2025-03-01 00:00 UTC: the leaf that signs is valid from 60 days before to three years after.
    static let start: Int64 = 1_740_787_200_000

    init() throws {
        chain = try SigningChain(seed: 11, start: Self.start)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("iap-audit-root-\(UUID().uuidString)")
        try Data(chain.rootDER).write(to: url)
        rootPath = url.path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: rootPath)
    }

    /// Epoch milliseconds of an ISO 8601 UTC time (`2025-03-02T18:00:00Z`).
    static func milliseconds(_ time: String) -> Int64 {
        Int64((ISO8601DateFormatter().date(from: time)?.timeIntervalSince1970 ?? -1) * 1000)
    }

    /// A JWSTransactionDecodedPayload of app `com.example.sk2`; `extra` members are set as given.
    static func transaction(
        _ id: String, product: String, type: String = "Consumable", at time: String, original: String? = nil,
        quantity: Int64 = 1, price: Int64? = nil, currency: String = "USD", environment: String = "Production",
        extra: [(String, SignedJSON)] = []
    ) -> SignedJSON {
        var members: [(String, SignedJSON)] = [
            ("transactionId", .string(id)), ("originalTransactionId", .string(original ?? id)),
            ("bundleId", .string("com.example.sk2")), ("productId", .string(product)), ("type", .string(type)),
            ("purchaseDate", .integer(milliseconds(time))), ("quantity", .integer(quantity)),
            ("inAppOwnershipType", .string("PURCHASED")), ("environment", .string(environment)),
            ("storefront", .string("USA")),
        ]
        if let price { members += [("price", .integer(price)), ("currency", .string(currency))] }
        // An extra member replaces a default one of its name: a JSON object names each member once.
        return extra.reduce(SignedJSON.object(members)) { $0.setting($1.0, to: $1.1) }
    }

    /// `payload` as a compact JWS signed by `identity` (the chain's current leaf when nil), dated `signedAt` or a
    /// minute after the latest date the payload holds.
    func jws(_ payload: SignedJSON, by identity: SigningChain.Identity? = nil, signedAt: Int64? = nil) throws -> String
    {
        let dates = ["purchaseDate", "revocationDate"].compactMap { name -> Int64? in
            if case .integer(let value)? = payload[name] { return value }
            return nil
        }
        let signedDate = signedAt ?? ((dates.max() ?? Self.start) + 60_000)
        return try chain.sign(payload.setting("signedDate", to: .integer(signedDate)), by: identity ?? chain.current)
    }

    /// A V2 notification body (`{"signedPayload": …}`) of `type` (and `subtype`) carrying `transaction`.
    func notification(
        _ transaction: String, uuid: String, at time: String, type: String = "ONE_TIME_CHARGE", subtype: String? = nil
    ) throws -> String {
        let data = SignedJSON.object([
            ("bundleId", .string("com.example.sk2")), ("appAppleId", .integer(333)),
            ("environment", .string("Production")), ("signedTransactionInfo", .string(transaction)),
        ])
        var payload = SignedJSON.object([
            ("notificationType", .string(type)), ("notificationUUID", .string(uuid)),
            ("version", .string("2.0")), ("data", data),
        ])
        if let subtype { payload = payload.setting("subtype", to: .string(subtype)) }
        let signed = try jws(payload, signedAt: Self.milliseconds(time))
        return SignedJSON.object([("signedPayload", .string(signed))]).text
    }

    /// A Server API transaction-history page of `transactions`.
    static func historyPage(_ transactions: [String]) -> String {
        SignedJSON.object([
            ("revision", .string("r1")), ("hasMore", .bool(false)), ("bundleId", .string("com.example.sk2")),
            ("appAppleId", .integer(333)), ("environment", .string("Production")),
            ("signedTransactions", .array(transactions.map { .string($0) })),
        ]).text
    }

    /// An envelope our server recorded for `username`, with one signed transaction or several.
    static func envelope(_ username: String, _ transactions: [String]) -> String {
        let member: (String, SignedJSON) =
            transactions.count == 1
            ? ("signed_transaction", .string(transactions[0]))
            : ("signed_transactions", .array(transactions.map { .string($0) }))
        return SignedJSON.object([("application_username", .string(username)), member]).text
    }

    /// A catalog of one StoreKit 2 app: a consumable, a non-consumable and two subscriptions of one group.
    static let catalog = """
        {"apps": [{"bundle_id": "com.example.sk2", "apple_id": "333", "sku": "SK2", "name": "StoreKit 2 app"}],
         "products": [
          {"product_id": "gold", "bundle_id": "com.example.sk2", "type": "consumable"},
          {"product_id": "pro", "bundle_id": "com.example.sk2", "type": "non-consumable"},
          {"product_id": "plus", "bundle_id": "com.example.sk2", "type": "auto-renewable"},
          {"product_id": "premium", "bundle_id": "com.example.sk2", "type": "auto-renewable"}
        ]}
        """
}
