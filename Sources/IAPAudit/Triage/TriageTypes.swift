/// What an analyst may decide about a flag (docs/triage.md).
package enum TriageAction: String, Sendable, CaseIterable {
    case confirm, dismiss, reopen, note
}

/// Why a flag was dismissed: the short documented list, so the rule-quality report can count by reason.
package enum DismissalReason: String, Sendable, CaseIterable {
    case familySharing = "family-sharing"
    case tester
    case knownWhale = "known-whale"
    case duplicate
    case dataError = "data-error"
    case other
}

/// Which flags `TriageDesk.list` shows; nil means any.
package struct FlagFilter: Sendable {
    package var rule: String?
    package var severity: String?
    /// open, confirmed, dismissed or superseded; nil: every status.
    package var status: String? = "open"
    /// Only flags first raised at least this many days ago.
    package var olderThanDays: Int?
    /// Only flags first raised less than this many days ago.
    package var newerThanDays: Int?
    /// Only flags on this subject key (an account hash, a store account, a transaction id, a receipt id).
    package var subject: String?
    package var limit: Int?

    package init() {}

    /// The statuses a flag can have.
    package static let statuses = ["open", "confirmed", "dismissed", "superseded"]
    package static let severities = ["info", "warning", "high"]
}

/// One flag in the queue.
package struct FlagLine: Sendable {
    package var id: Int64
    package var rule: String
    package var ruleVersion: Int
    package var severity: String
    package var subjectKind: String
    package var subjectKey: String
    package var status: String
    package var score: String
    /// When the flag was first raised (UTC, `YYYY-MM-DD HH:MM:SSZ`) and how many whole days ago.
    package var createdAt: String
    package var ageDays: Int
    /// The latest decision's action and who made it; nil when no one has decided yet.
    package var lastAction: String?
    package var lastActor: String?
}

/// One row of a flag's decision log.
package struct DecisionRecord: Sendable {
    package var id: Int64
    package var flagID: Int64
    package var action: String
    package var reason: String?
    package var note: String
    package var actor: String
    package var databaseUser: String
    package var decidedAt: String
    package var ruleVersion: Int
    package var statusAfter: String
}

/// A flag with its evidence and its decision history, oldest decision first.
package struct FlagDetail: Sendable {
    package var line: FlagLine
    package var windowStart: String?
    package var windowEnd: String?
    package var updatedAt: String
    /// The evidence as indented JSON.
    package var evidence: String
    package var decisions: [DecisionRecord]
}

/// A decision to append.
package struct TriageDecision: Sendable {
    package var flagID: Int64
    package var action: TriageAction
    package var reason: DismissalReason?
    package var text: String
    package var actor: String

    package init(flagID: Int64, action: TriageAction, reason: DismissalReason?, text: String, actor: String) {
        self.flagID = flagID
        self.action = action
        self.reason = reason
        self.text = text
        self.actor = actor
    }
}
