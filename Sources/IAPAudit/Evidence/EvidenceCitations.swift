internal import Foundation

/// The stored records a flag's evidence cites, found by their keys' names anywhere in its JSON (each rule writes
/// its own shape, sql/rules/): receipts by any `…receipt_id`, transactions by `transaction_id`,
/// `original_transaction_id` and `transaction_ids`; and the flag's subject itself when it is a receipt, a transaction
/// or a receipt's data.
struct EvidenceCitations: Equatable {
    var receiptIDs: Set<Int64> = []
    var transactionIDs: Set<String> = []
    var receiptDataSHA256: Set<String> = []

    /// Adds what `evidence` (a flag's evidence as JSON text) cites and what its subject names.
    mutating func add(evidence: String, subjectKind: String, subjectKey: String) {
        switch subjectKind {
        case "receipt": if let id = Int64(subjectKey) { receiptIDs.insert(id) }
        case "transaction": transactionIDs.insert(subjectKey)
        case "receipt-data": receiptDataSHA256.insert(subjectKey)
        default: break
        }
        if let value = try? JSONSerialization.jsonObject(with: Data(evidence.utf8), options: [.fragmentsAllowed]) {
            walk(value, key: nil)
        }
    }

    private mutating func walk(_ value: Any, key: String?) {
        switch value {
        case let object as [String: Any]:
            for (name, member) in object { walk(member, key: name) }
        case let array as [Any]:
            for element in array { walk(element, key: key == "transaction_ids" ? "transaction_id" : key) }
        default:
            guard let key, let text = Self.scalar(value) else { return }
            if key.hasSuffix("receipt_id"), let id = Int64(text) {
                receiptIDs.insert(id)
            } else if key == "transaction_id" || key == "original_transaction_id" {
                transactionIDs.insert(text)
            }
        }
    }

    /// A number or a string as text; nil for anything else.
    private static func scalar(_ value: Any) -> String? {
        switch value {
        case let text as String: text
        case let number as Int: String(number)
        case let number as Int64: String(number)
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }
}
