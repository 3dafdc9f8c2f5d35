internal import Foundation

/// What `evidence export` gathers evidence about: a flagged subject, as `flags list --subject` and the report site
/// name it (docs/evidence.md).
///
/// `KIND:KEY` names one kind (`app-account:…`, `store-account:…`, `transaction:…`, `receipt:…`, `receipt-data:…`);
/// a bare `KEY` is every subject with that key, as `flags list --subject KEY` reads it.
package struct EvidenceSubject: Sendable, Equatable {
    /// The subject kinds flags have (the `flag.subject_kind` check and the site's subject pages).
    package static let kinds = ["app-account", "store-account", "transaction", "receipt", "receipt-data"]

    /// Nil: any kind with this key.
    package var kind: String?
    package var key: String

    /// Parses `text`; nil when it names no subject (empty, or an unknown kind before the colon).
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let colon = trimmed.firstIndex(of: ":"), Self.kinds.contains(String(trimmed[..<colon])) {
            kind = String(trimmed[..<colon])
            key = String(trimmed[trimmed.index(after: colon)...])
        } else if trimmed.contains(":") {
            return nil
        } else {
            kind = nil
            key = trimmed
        }
        guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else { return nil }
    }

    /// How the subject reads in messages and the bundle: `KIND:KEY`, or the key alone.
    package var description: String { kind.map { "\($0):\(key)" } ?? key }
}
