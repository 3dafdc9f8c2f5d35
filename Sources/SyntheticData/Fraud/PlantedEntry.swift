/// One transaction entry the fraud writer plants: only the fields the rules look at, written as strings the way
/// verifyReceipt does.
struct PlantedEntry {
    var productID: String
    var transactionID: String
    var originalTransactionID: String
    var purchaseMilliseconds: Int64
    var expiresMilliseconds: Int64?
    var cancellationMilliseconds: Int64?
    var cancellationReason: Int?
    var isTrialPeriod = false
    var isUpgraded = false
    var ownershipType: String?
    var subscriptionGroup: String?

    /// A first purchase: its own original transaction.
    init(_ productID: String, id: String, at milliseconds: Int64) {
        self.productID = productID
        self.transactionID = id
        self.originalTransactionID = id
        self.purchaseMilliseconds = milliseconds
    }

    /// The entry as a JSON object.
    var json: String {
        var fields: [(String, String)] = [
            ("quantity", "1"), ("product_id", productID), ("transaction_id", transactionID),
            ("original_transaction_id", originalTransactionID), ("purchase_date_ms", String(purchaseMilliseconds)),
            ("original_purchase_date_ms", String(purchaseMilliseconds)),
            ("is_trial_period", isTrialPeriod ? "true" : "false"),
        ]
        if let expiresMilliseconds { fields.append(("expires_date_ms", String(expiresMilliseconds))) }
        if let cancellationMilliseconds { fields.append(("cancellation_date_ms", String(cancellationMilliseconds))) }
        if let cancellationReason { fields.append(("cancellation_reason", String(cancellationReason))) }
        if isUpgraded { fields.append(("is_upgraded", "true")) }
        if let ownershipType { fields.append(("in_app_ownership_type", ownershipType)) }
        if let subscriptionGroup { fields.append(("subscription_group_identifier", subscriptionGroup)) }
        return PlantedJSON.object(fields.map { ($0.0, PlantedJSON.string($0.1)) })
    }
}

/// Minimal JSON text building for the fraud writer; strings are escaped by `JSONByteWriter`, as in every other file.
enum PlantedJSON {
    static func string(_ text: String) -> String {
        var json = JSONByteWriter()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// An object from (key, already-encoded value) pairs, in order.
    static func object(_ members: [(String, String)]) -> String {
        "{" + members.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func array(_ elements: [String]) -> String {
        "[" + elements.joined(separator: ",") + "]"
    }
}
