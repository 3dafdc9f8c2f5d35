internal import Foundation

/// Thresholds and windows of every fraud rule, with FRAUD.md's defaults; each detect run records the values it used.
///
/// Apple publishes no thresholds: these are starting points analysts tune. Encoded with snake_case keys, which is
/// also how each rule's SQL reads its part (`$1::jsonb ->> 'window_days'`). Decoding accepts a partial document:
/// any key left out keeps its default.
public struct DetectionSettings: Sendable, Equatable, Codable {
    /// `many-store-accounts`: one app account paying from many App Store accounts.
    public struct ManyStoreAccounts: Sendable, Equatable, Codable {
        public var windowDays = 30
        public var warningStoreAccounts = 3
        public var highStoreAccounts = 5
        public var burstHours = 24
        /// New store accounts (beyond the app account's first) within `burstHours` that make the flag high.
        public var burstNewStoreAccounts = 2
        public init() {}
    }

    /// `shared-store-account`: one App Store account behind many app accounts.
    public struct SharedStoreAccount: Sendable, Equatable, Codable {
        public var windowDays = 30
        public var minAppAccounts = 3
        public init() {}
    }

    /// `receipt-replay`: one purchase or receipt posted by several app accounts.
    public struct ReceiptReplay: Sendable, Equatable, Codable {
        public var minAccountsPerTransaction = 2
        public var minAccountsPerOriginalTransaction = 3
        public var windowDays = 30
        public var minAccountsPerReceipt = 2
        public init() {}
    }

    /// `invalid-receipts`: bursts of receipts Apple rejected.
    public struct InvalidReceipts: Sendable, Equatable, Codable {
        public var windowHours = 24
        public var warningReceipts = 3
        public var highReceipts = 5
        /// 21005, 21009 and 211xx are Apple's faults and must never be listed here.
        public var countedStatuses = [21002, 21003, 21010]
        /// Statuses that flag at least `info` on their own (21003: not authentic).
        public var infoStatuses = [21003]
        public init() {}
    }

    /// `sandbox-in-production`.
    public struct SandboxInProduction: Sendable, Equatable, Codable {
        /// Account keys of App Review and internal testers, whose sandbox receipts are expected.
        public var testerAccountKeys: [String] = []
        public init() {}
    }

    /// `refund-abuse`.
    public struct RefundAbuse: Sendable, Equatable, Codable {
        public var windowDays = 90
        public var warningRefunds = 2
        public var highRefunds = 3
        public var minRefundRate = 0.5
        public var minPurchasesForRate = 4
        /// `cancellation_reason` 1 is a problem in our app, not the customer's doing.
        public var ignoredCancellationReasons = [1]
        public init() {}
    }

    /// `purchase-velocity`.
    public struct PurchaseVelocity: Sendable, Equatable, Codable {
        public var shortWindowMinutes = 60
        public var shortWindowPurchases = 3
        public var longWindowHours = 24
        public var longWindowPurchases = 10
        public init() {}
    }

    /// `trial-cycling`.
    public struct TrialCycling: Sendable, Equatable, Codable {
        public var windowDays = 180
        public var minIntroOfferStarts = 2
        public init() {}
    }

    /// `forged-fields`.
    public struct ForgedFields: Sendable, Equatable, Codable {
        /// An expiry this many years after the purchase is impossible ("decades ahead").
        public var maxExpiryYearsAhead = 10
        public init() {}
    }

    public var manyStoreAccounts = ManyStoreAccounts()
    public var sharedStoreAccount = SharedStoreAccount()
    public var receiptReplay = ReceiptReplay()
    public var invalidReceipts = InvalidReceipts()
    public var sandboxInProduction = SandboxInProduction()
    public var refundAbuse = RefundAbuse()
    public var purchaseVelocity = PurchaseVelocity()
    public var trialCycling = TrialCycling()
    public var forgedFields = ForgedFields()

    /// FRAUD.md's defaults.
    public init() {}

    /// Decodes a (possibly partial) settings document: keys left out keep their defaults.
    public init(from decoder: any Decoder) throws {
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
    public func jsonText() throws -> String {
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
        case .sandboxInProduction: data = try Self.encoder.encode(sandboxInProduction)
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
