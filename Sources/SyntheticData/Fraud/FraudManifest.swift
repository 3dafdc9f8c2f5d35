/// The known answer for the planted fraud patterns and false-positive traps (`fraud-manifest.json`): which rule
/// must flag which subject, and which subjects no rule may flag.
package struct FraudManifest: Codable, Sendable, Equatable {
    /// What a flag is about. Receipts have no id before ingest, so they are named by file and line.
    package struct Subject: Codable, Sendable, Hashable {
        /// `app-account`, `store-account`, `transaction`, `receipt` or `receipt-data`.
        package var kind: String
        /// The flag's subject key; nil for a receipt (see `file` and `line`).
        package var key: String?
        /// For a receipt: its file, relative to the output directory.
        package var file: String?
        /// For a receipt: its 1-based line.
        package var line: Int?

        /// A subject known by key.
        package init(kind: String, key: String) {
            self.kind = kind
            self.key = key
        }

        /// A receipt known by its place in the input.
        package init(receiptIn file: String, line: Int) {
            self.kind = "receipt"
            self.file = file
            self.line = line
        }
    }

    /// A planted pattern: `rule` must flag `subject`.
    package struct Planted: Codable, Sendable, Equatable {
        /// What was planted, in words.
        package var pattern: String
        package var rule: String
        package var subject: Subject
        /// The severity the rule must give it.
        package var severity: String
    }

    /// A false-positive trap (docs/fraud-rules.md): no rule may flag any of `subjects`.
    package struct Trap: Codable, Sendable, Equatable {
        package var trap: String
        package var subjects: [Subject]
    }

    /// The receipt file the patterns are in, relative to the output directory.
    package var file: String
    package var planted: [Planted]
    package var traps: [Trap]
    /// Account keys (Apple-format hashes, no pepper) of testers whose sandbox receipts are expected.
    package var testerAccountKeys: [String]

    enum CodingKeys: String, CodingKey {
        case file, planted, traps
        case testerAccountKeys = "tester_account_keys"
    }
}
