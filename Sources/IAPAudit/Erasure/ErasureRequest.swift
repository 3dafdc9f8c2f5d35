internal import AppStoreFormats
internal import Foundation

/// What `iap-audit erase` was asked to erase, checked: an account key as IAPAudit stores it (Apple's SHA-256 format,
/// peppered if configured: what `hash-username` prints), an app account token (a UUID), or both; who asks, and the
/// operator's reference for the request.
///
/// A value that is not well formed is refused without being echoed: a mistyped argument may be the raw username.
package struct ErasureRequest: Sendable {
    /// The account key, lowercase.
    package let accountKey: String?
    /// The app account token, lowercase with dashes, as PostgreSQL writes a uuid.
    package let appAccountToken: String?
    /// Who erases: `--as`, else IAP_AUDIT_ANALYST, else the OS user.
    package let actor: String
    /// The operator's name for the request (a ticket number), kept in the log in place of the key.
    package let reference: String

    package init(
        accountKey: String?, appAccountToken: String?, actor: String, reference: String
    ) throws(IAPAuditError) {
        guard accountKey != nil || appAccountToken != nil else {
            throw .usage("erase needs --account HASH or --app-account-token UUID (or both)")
        }
        if let accountKey {
            guard let canonical = AccountKeyHasher.canonicalAppleHash(accountKey) else {
                throw .usage(
                    "--account is not an account key: 8 groups of 8 hex digits joined by '-' (71 characters), as "
                        + "iap-audit hash-username prints it; the value is not repeated here")
            }
            self.accountKey = canonical
        } else {
            self.accountKey = nil
        }
        if let appAccountToken {
            guard let uuid = UUID(uuidString: appAccountToken) else {
                throw .usage(
                    "--app-account-token is not a UUID (8-4-4-4-12 hex digits); the value is not repeated here")
            }
            self.appAccountToken = uuid.uuidString.lowercased()
        } else {
            self.appAccountToken = nil
        }
        let name = actor.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .usage("cannot tell who erases: pass --as NAME") }
        self.actor = name
        self.reference = reference.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The kind of identifier asked for, as the log records it.
    var requestedBy: String {
        switch (accountKey, appAccountToken) {
        case (.some, .some): "both"
        case (.some, nil): "account-key"
        default: "app-account-token"
        }
    }
}

/// What one erasure did: how many identifiers it found and the rows it changed per table. Never the identifiers.
package struct ErasureSummary: Encodable, Sendable, Equatable {
    /// The erasure's row in the log.
    package var erasureID: Int64
    /// Account keys erased (the one asked for, and those whose envelopes carried the token asked for).
    package var accountKeys: Int
    /// App account tokens erased (the one asked for, and those the account's envelopes carried).
    package var tokens: Int
    /// Rows changed, by table.
    package var rows: [String: Int]
    /// Triage notes (flag_decision, append-only) whose free text names the customer: not changed, told.
    package var decisionNotesNamingCustomer: Int
    /// Files of the report folder that named the customer before it was written again.
    package var reportFilesRewritten = 0
    /// Files that still do afterwards (relative paths, identifiers blanked): none, or the erasure is unfinished.
    package var reportFilesStillNaming: [String] = []

    /// Whether the database held anything of the customer.
    package var foundAnything: Bool { rows.values.contains { $0 > 0 } }
}
