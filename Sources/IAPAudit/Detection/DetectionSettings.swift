internal import Foundation

/// Thresholds and windows of every fraud rule, with docs/fraud-rules.md's defaults; each detect run records the
/// values it used.
///
/// Apple publishes no thresholds: these are starting points analysts tune. Encoded with snake_case keys, which is
/// also how each rule's SQL reads its part (`$1::jsonb ->> 'window_days'`). Decoding accepts a partial document:
/// any key left out keeps its default.
package struct DetectionSettings: Sendable, Equatable, Codable {
    /// `many-store-accounts`: one app account paying from many App Store accounts.
    package struct ManyStoreAccounts: Sendable, Equatable, Codable {
        package var windowDays = 30
        package var warningStoreAccounts = 3
        package var highStoreAccounts = 5
        package var burstHours = 24
        /// New store accounts (beyond the app account's first) within `burstHours` that make the flag high.
        package var burstNewStoreAccounts = 2
        package init() {}
    }

    /// `shared-store-account`: one App Store account behind many app accounts.
    package struct SharedStoreAccount: Sendable, Equatable, Codable {
        package var windowDays = 30
        package var minAppAccounts = 3
        package init() {}
    }

    /// `receipt-replay`: one purchase or receipt posted by several app accounts.
    package struct ReceiptReplay: Sendable, Equatable, Codable {
        package var minAccountsPerTransaction = 2
        package var minAccountsPerOriginalTransaction = 3
        package var windowDays = 30
        package var minAccountsPerReceipt = 2
        package init() {}
    }

    /// `invalid-receipts`: bursts of receipts Apple rejected.
    package struct InvalidReceipts: Sendable, Equatable, Codable {
        package var windowHours = 24
        package var warningReceipts = 3
        package var highReceipts = 5
        /// 21005, 21009 and 211xx are Apple's faults and must never be listed here.
        package var countedStatuses = [21002, 21003, 21010]
        /// Statuses that flag at least `info` on their own (21003: not authentic).
        package var infoStatuses = [21003]
        package init() {}
    }

    /// `sandbox-in-production`.
    package struct SandboxInProduction: Sendable, Equatable, Codable {
        /// Account keys of App Review and internal testers, whose sandbox receipts are expected.
        package var testerAccountKeys: [String] = []
        package init() {}
    }

    /// `refund-abuse`.
    package struct RefundAbuse: Sendable, Equatable, Codable {
        package var windowDays = 90
        package var warningRefunds = 2
        package var highRefunds = 3
        package var minRefundRate = 0.5
        package var minPurchasesForRate = 4
        /// `cancellation_reason` 1 is a problem in our app, not the customer's doing.
        package var ignoredCancellationReasons = [1]
        /// Refund requests Apple did not grant (declined, or no refund that stands) that flag on their own.
        package var warningDeclinedRequests = 3
        package init() {}
    }

    /// `purchase-velocity`.
    package struct PurchaseVelocity: Sendable, Equatable, Codable {
        package var shortWindowMinutes = 60
        package var shortWindowPurchases = 3
        package var longWindowHours = 24
        package var longWindowPurchases = 10
        package init() {}
    }

    /// `trial-cycling`.
    package struct TrialCycling: Sendable, Equatable, Codable {
        package var windowDays = 180
        package var minIntroOfferStarts = 2
        package init() {}
    }

    /// `forged-fields`.
    package struct ForgedFields: Sendable, Equatable, Codable {
        /// An expiry this many years after the purchase is impossible ("decades ahead").
        package var maxExpiryYearsAhead = 10
        package init() {}
    }

    package var manyStoreAccounts = ManyStoreAccounts()
    package var sharedStoreAccount = SharedStoreAccount()
    package var receiptReplay = ReceiptReplay()
    package var invalidReceipts = InvalidReceipts()
    package var sandboxInProduction = SandboxInProduction()
    package var refundAbuse = RefundAbuse()
    package var purchaseVelocity = PurchaseVelocity()
    package var trialCycling = TrialCycling()
    package var forgedFields = ForgedFields()

    /// The defaults of docs/fraud-rules.md.
    package init() {}

    /// Decodes a (possibly partial) settings document: keys left out keep their defaults.
    package init(from decoder: any Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func merge<Value: Codable>(_ key: CodingKeys, into value: inout Value) throws {
            guard let overrides = try container.decodeIfPresent(JSONValueTree.self, forKey: key) else { return }
            value = try Self.merged(value, overrides)
        }
        try merge(.manyStoreAccounts, into: &manyStoreAccounts)
        try merge(.sharedStoreAccount, into: &sharedStoreAccount)
        try merge(.receiptReplay, into: &receiptReplay)
        try merge(.invalidReceipts, into: &invalidReceipts)
        try merge(.sandboxInProduction, into: &sandboxInProduction)
        try merge(.refundAbuse, into: &refundAbuse)
        try merge(.purchaseVelocity, into: &purchaseVelocity)
        try merge(.trialCycling, into: &trialCycling)
        try merge(.forgedFields, into: &forgedFields)
    }

    enum CodingKeys: String, CodingKey {
        case manyStoreAccounts = "many_store_accounts"
        case sharedStoreAccount = "shared_store_account"
        case receiptReplay = "receipt_replay"
        case invalidReceipts = "invalid_receipts"
        case sandboxInProduction = "sandbox_in_production"
        case refundAbuse = "refund_abuse"
        case purchaseVelocity = "purchase_velocity"
        case trialCycling = "trial_cycling"
        case forgedFields = "forged_fields"
    }

    /// The whole settings as JSON (snake_case keys, sorted), as recorded with each run.
    package func jsonText() throws -> String {
        String(decoding: try Self.encoder.encode(self), as: UTF8.self)
    }

    /// One rule's part as JSON: the `$1` its SQL reads.
    func jsonText(for rule: DetectionRule) throws -> String {
        let data: Data
        switch rule {
        case .manyStoreAccounts: data = try Self.encoder.encode(manyStoreAccounts)
        case .sharedStoreAccount: data = try Self.encoder.encode(sharedStoreAccount)
        case .receiptReplay: data = try Self.encoder.encode(receiptReplay)
        case .invalidReceipts: data = try Self.encoder.encode(invalidReceipts)
        // Testers are testers for both rules: one allowlist, so an Xcode-signed record from one is no finding either.
        case .sandboxInProduction, .forgedSignature: data = try Self.encoder.encode(sandboxInProduction)
        case .refundAbuse: data = try Self.encoder.encode(refundAbuse)
        case .purchaseVelocity: data = try Self.encoder.encode(purchaseVelocity)
        case .trialCycling: data = try Self.encoder.encode(trialCycling)
        case .forgedFields: data = try Self.encoder.encode(forgedFields)
        case .foreignApp, .unknownProduct, .transactionConflict: data = Data("{}".utf8)
        }
        return String(decoding: data, as: UTF8.self)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }

    /// `value` with the keys present in `overrides` replaced: encode the defaults, overlay, decode.
    private static func merged<Value: Codable>(_ value: Value, _ overrides: JSONValueTree) throws -> Value {
        let defaults = try JSONSerialization.jsonObject(with: encoder.encode(value))
        guard var object = defaults as? [String: Any], case .object(let given) = overrides else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "rule settings must be an object"))
        }
        for (key, override) in given { object[key] = override.foundationValue }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Value.self, from: JSONSerialization.data(withJSONObject: object))
    }
}

/// Any JSON value, decoded without knowing its shape (for overlaying partial settings).
enum JSONValueTree: Decodable {
    case object([String: JSONValueTree])
    case array([JSONValueTree])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValueTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValueTree].self))
        }
    }

    var foundationValue: Any {
        switch self {
        case .object(let members): members.mapValues(\.foundationValue)
        case .array(let elements): elements.map(\.foundationValue)
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? Int(number) as Any : number
        case .bool(let flag): flag
        case .null: NSNull()
        }
    }
}
