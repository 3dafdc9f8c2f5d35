/// The fraud rules of docs/fraud-rules.md; each one's SQL is `sql/rules/<id>.sql`, built into the binary.
package enum DetectionRule: String, Sendable, CaseIterable, Codable {
    case manyStoreAccounts = "many-store-accounts"
    case sharedStoreAccount = "shared-store-account"
    case receiptReplay = "receipt-replay"
    case invalidReceipts = "invalid-receipts"
    case foreignApp = "foreign-app"
    case unknownProduct = "unknown-product"
    case sandboxInProduction = "sandbox-in-production"
    case transactionConflict = "transaction-conflict"
    case refundAbuse = "refund-abuse"
    case purchaseVelocity = "purchase-velocity"
    case trialCycling = "trial-cycling"
    case forgedFields = "forged-fields"
    case forgedSignature = "forged-signature"

    /// The rule's id, as flags and `--rule` name it.
    package var id: String { rawValue }

    /// The rule's SQL: one SELECT of (subject_kind, subject_key, severity, window_start, window_end, score,
    /// evidence), reading its settings from `$1`; a trailing `;` (for psql users) removed.
    func sql() throws(IAPAuditError) -> String {
        guard let text = EmbeddedResources.rules.first(where: { $0.name == rawValue + ".sql" })?.text else {
            throw IAPAuditError.internalInconsistency("rule \(rawValue).sql is not built into this binary")
        }
        var body = Substring(text)
        while let last = body.last, last.isWhitespace || last == ";" { body = body.dropLast() }
        return String(body)
    }

    /// True when the rule can evaluate only the subjects detect queued (its SQL takes `$2`, "every subject"). The
    /// others read small tables (failed signatures, transaction conflicts) whole every run.
    func readsQueuedSubjects() throws(IAPAuditError) -> Bool {
        SQLPlaceholders(scanning: try sql()).numbers.contains(2)
    }

    /// The `-- version: N` of the rule's header: bumped whenever what the rule flags changes.
    func version() throws(IAPAuditError) -> Int {
        guard let number = try header("version").flatMap({ Int($0) }) else {
            throw IAPAuditError.internalInconsistency("rule \(rawValue).sql has no '-- version: N' header line")
        }
        return number
    }

    /// True when the rule's header says `-- every subject: hash joins`: over every subject, its joins are planned
    /// without nested loops. For a rule whose estimate of a million-row join collapses (docs/decisions.md, "A
    /// rebuild hashes; a day looks up"); the others keep the index probes that serve them best.
    func hashesEverySubject() throws(IAPAuditError) -> Bool {
        try header("every subject") == "hash joins"
    }

    /// The value of the header line `-- name: value`, up to the first line that is not a comment.
    private func header(_ name: String) throws(IAPAuditError) -> String? {
        for line in try sql().split(separator: "\n") {
            guard line.hasPrefix("--") else { break }
            let content = line.dropFirst(2).drop { $0 == " " }
            if content.hasPrefix(name + ":") {
                return String(content.dropFirst(name.count + 1).drop { $0 == " " })
            }
        }
        return nil
    }
}
