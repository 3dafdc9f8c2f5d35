internal import Postgres

extension TriageDesk {
    /// Appends `decision` to the flag's log through `flag_decide`, which checks it and sets the flag's status; returns
    /// the row written. A decision the database refuses (no such flag, a dismissal without a listed reason, a reopen
    /// of an open flag) is a usage error; a role without the grant, a configuration error.
    package func decide(_ decision: TriageDecision) throws -> DecisionRecord {
        let rows: QueryResult
        do {
            rows = try connection.query(
                SQLQuery.triageDecide.text,
                [decision.flagID, decision.action.rawValue, decision.reason?.rawValue, decision.text, decision.actor],
                context: "\(decision.action.rawValue) flag \(decision.flagID)")
        } catch {
            switch error.sqlState {
            case "P0002", "22023": throw IAPAuditError.usage(error.message)
            case "42501":
                throw IAPAuditError.configuration(
                    "the database refused the decision (\(error.message)): the role needs EXECUTE on flag_decide, "
                        + "which iap_audit_analyst has (docs/triage.md)")
            default: throw error
            }
        }
        guard rows.rowCount == 1 else { throw PostgresError(kind: .decoding, message: "flag_decide returned no row") }
        return try Self.decision(rows.row(0))
    }
}
