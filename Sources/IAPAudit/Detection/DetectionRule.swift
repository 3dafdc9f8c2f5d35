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
        for line in try sql().split(separator: "\n") {
            guard line.hasPrefix("--") else { break }
            let content = line.dropFirst(2).drop { $0 == " " }
            if content.hasPrefix("version:"),
                let number = Int(content.dropFirst("version:".count).drop(while: { $0 == " " }))
            {
                return number
            }
        }
        throw IAPAuditError.internalInconsistency("rule \(rawValue).sql has no '-- version: N' header line")
    }
}
