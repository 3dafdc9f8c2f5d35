/// The known answer for the generated StoreKit 2 data (`storekit2-manifest.json`): every record with its shape,
/// every JWS with the verification outcome it must get when the generator's root is trusted, the planted failures
/// and the traps no rule may flag.
package struct SignedManifest: Codable, Sendable, Equatable {
    /// One line of a signed-data file.
    package struct Record: Codable, Sendable, Equatable {
        /// Relative to the output directory.
        package var file: String
        /// 1-based.
        package var line: Int
        /// How the line is shaped (`SignedManifest.shapes`).
        package var shape: String
    }

    /// One JWS written, wherever it sits: its place, and its facts (whose keys are written beside the place's).
    @dynamicMemberLookup
    package struct Entry: Sendable, Equatable {
        package var file: String
        package var line: Int
        /// Where the JWS string is: a JSON Pointer (RFC 6901) into the line's JSON, `""` when the line is the JWS
        /// itself (bare, or a JSON string). A segment `payload` right after a JWS means "inside that JWS's decoded
        /// payload": `/signedPayload/payload/data/signedTransactionInfo` is the transaction inside a notification.
        package var pointer: String
        package var facts: Facts

        /// `entry.outcome` for `entry.facts.outcome`.
        package subscript<Value>(dynamicMember keyPath: KeyPath<Facts, Value>) -> Value { facts[keyPath: keyPath] }
    }

    /// What one JWS is, who signed it and what its verification must give: the same wherever it is written.
    package struct Facts: Codable, Sendable, Equatable {
        /// `transaction`, `renewal-info`, `notification` or `app-transaction`.
        package var kind: String
        /// The payload's `transactionId` (transactions), else nil.
        package var transactionID: String?
        /// The payload's `originalTransactionId` (transactions and renewal infos), else nil.
        package var originalTransactionID: String?
        /// The `environment` the payload claims (a notification's is in `data`).
        package var environment: String
        /// The payload's `signedDate`, epoch milliseconds.
        package var signedDate: Int64
        /// Which of the generator's signers made it (`SigningChain.Identity`'s name), or `none`.
        package var signer: String
        /// A `VerificationOutcome` raw value when the generator's root is trusted, or `invalid-jws`.
        package var outcome: String

        enum CodingKeys: String, CodingKey {
            case kind
            case transactionID = "transaction_id"
            case originalTransactionID = "original_transaction_id"
            case environment
            case signedDate = "signed_date"
            case signer, outcome
        }
    }

    /// A planted failure: the record at `file`/`line`/`pointer` must get `outcome`, and `forged-signature` must flag
    /// it with `severity` (docs/decisions.md, "Signed data"); `invalid-jws` records are quarantined instead.
    package struct Planted: Codable, Sendable, Equatable {
        package var outcome: String
        package var description: String
        package var file: String
        package var line: Int
        package var pointer: String
        /// The transaction id the payload claims, when it could be read.
        package var transactionID: String?
        package var environment: String?
        /// `high` (claims Production), `info` (Xcode), or nil for `invalid-jws` (quarantined, not flagged).
        package var severity: String?

        enum CodingKeys: String, CodingKey {
            case outcome, description, file, line, pointer
            case transactionID = "transaction_id"
            case environment, severity
        }
    }

    /// A trap: genuine data no rule may flag, and no verification may reject.
    package struct Trap: Codable, Sendable, Equatable {
        package var trap: String
        package var description: String
        /// The transactions concerned (verified, Production).
        package var transactionIDs: [String]
        /// The lines that carry them.
        package var records: [Record]

        enum CodingKeys: String, CodingKey {
            case trap, description
            case transactionIDs = "transaction_ids"
            case records
        }
    }

    /// Every shape a record may have, as `Record.shape` spells it (docs/decisions.md, "Signed data").
    package static let shapes = [
        "jws-line", "jws-string",
        "envelope-signed-transaction", "envelope-signed-transactions", "envelope-signed-renewal-info",
        "envelope-app-transaction", "envelope-notification",
        "notification-v2",
        "transaction-history", "transaction-history-under-response", "refund-history", "subscription-statuses",
        "notification-history", "transaction-info",
    ]

    /// The scenario the data was generated from.
    package var scenario: StoreKit2Scenario
    /// The root to trust, DER, relative to the output directory (`--trusted-root`).
    package var rootCertificate: String
    /// The signed-data files, relative to the output directory.
    package var files: [String]
    package var records: [Record]
    package var entries: [Entry]
    package var planted: [Planted]
    package var traps: [Trap]
    /// Distinct transaction ids of verified Production transactions.
    package var verifiedTransactions: Int

    enum CodingKeys: String, CodingKey {
        case scenario
        case rootCertificate = "root_certificate"
        case files, records, entries, planted, traps
        case verifiedTransactions = "verified_transactions"
    }
}

/// An entry is one flat JSON object: the place's keys and the facts' side by side, as before the facts had a type.
extension SignedManifest.Entry: Codable {
    enum CodingKeys: String, CodingKey {
        case file, line, pointer
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decode(String.self, forKey: .file)
        line = try container.decode(Int.self, forKey: .line)
        pointer = try container.decode(String.self, forKey: .pointer)
        facts = try SignedManifest.Facts(from: decoder)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(line, forKey: .line)
        try container.encode(pointer, forKey: .pointer)
        try facts.encode(to: encoder)
    }
}
