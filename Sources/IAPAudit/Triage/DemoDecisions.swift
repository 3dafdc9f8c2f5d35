internal import Postgres

/// The decisions `run --demo` makes, as an analyst would, so its site shows a triage trail: one flag confirmed, one
/// dismissed as family sharing. Demo only: a normal run's plan has none (`RunPlan.demoDecisions` is empty), and
/// every pipeline decision there is detect's reopening.
///
/// Each goes through `TriageDesk.decide`, the code path of `iap-audit flags confirm/dismiss`, and so through
/// `flag_decide` and its checks, into the same append-only log.
package struct DemoDecision: Sendable, Equatable {
    /// The rule whose flag is decided: its highest-scoring flag, then the first by subject.
    package var rule: String
    package var action: TriageAction
    package var reason: DismissalReason?
    package var text: String

    /// Who the demo's decisions are recorded as.
    package static let actor = "demo analyst"

    /// The demo's two: a receipt replayed across accounts confirmed, a store account shared by a family dismissed.
    package static let demo = [
        DemoDecision(
            rule: "receipt-replay", action: .confirm, reason: nil,
            text: "the demo's decision: one receipt posted by several accounts, a replay"),
        DemoDecision(
            rule: "shared-store-account", action: .dismiss, reason: .familySharing,
            text: "the demo's decision: the accounts are one family's devices under one Apple ID"),
    ]

    /// Makes the decision on its rule's flag unless that flag has a decision already (a second demo run decides
    /// nothing again); returns the decision logged, nil when none was.
    func apply(on connection: Connection) throws -> DecisionRecord? {
        let flag = try connection.query(
            SQLQuery.demoDecisionFlag.text, [rule], context: "find the demo's flag of \(rule)")
        guard let row = flag.allRows.first, try !row.decode(Bool.self, "decided") else { return nil }
        return try TriageDesk(connection: connection).decide(
            TriageDecision(
                flagID: Int64(try row.decode(Int.self, "id")), action: action, reason: reason, text: text,
                actor: Self.actor))
    }
}
