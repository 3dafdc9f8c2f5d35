/// The known answer for the planted fraud patterns and false-positive traps (`fraud-manifest.json`): which rule
/// must flag which subject, and which subjects no rule may flag.
public struct FraudManifest: Codable, Sendable, Equatable {
    /// What a flag is about. Receipts have no id before ingest, so they are named by file and line.
    public struct Subject: Codable, Sendable, Hashable {
        /// `app-account`, `store-account`, `transaction`, `receipt` or `receipt-data`.
        public var kind: String
        /// The flag's subject key; nil for a receipt (see `file` and `line`).
        public var key: String?
        /// For a receipt: its file, relative to the output directory.
        public var file: String?
        /// For a receipt: its 1-based line.
        public var line: Int?

        /// A subject known by key.
        public init(kind: String, key: String) {
            self.kind = kind
            self.key = key
        }

        /// A receipt known by its place in the input.
        public init(receiptIn file: String, line: Int) {
            self.kind = "receipt"
            self.file = file
            self.line = line
        }
    }

    /// A planted pattern: `rule` must flag `subject`.
    public struct Planted: Codable, Sendable, Equatable {
        /// What was planted, in words.
        public var pattern: String
        public var rule: String
        public var subject: Subject
        /// The severity the rule must give it.
        public var severity: String
    }

    /// A false-positive trap of FRAUD.md: no rule may flag any of `subjects`.
    public struct Trap: Codable, Sendable, Equatable {
        public var trap: String
        public var subjects: [Subject]
    }

    /// The receipt file the patterns are in, relative to the output directory.
    public var file: String
    public var planted: [Planted]
    public var traps: [Trap]
    /// Account keys (Apple-format hashes, no pepper) of testers whose sandbox receipts are expected.
    public var testerAccountKeys: [String]

    enum CodingKeys: String, CodingKey {
        case file, planted, traps
        case testerAccountKeys = "tester_account_keys"
    }
}
