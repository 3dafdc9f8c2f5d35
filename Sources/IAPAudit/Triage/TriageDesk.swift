package import Logging
internal import Postgres

/// Triage (docs/triage.md): lists flags, shows one with its evidence and decision log, and appends decisions through
/// the database's `flag_decide` function, the only write an analyst's role is granted.
///
/// It opens the database without migrating: an analyst's login (a member of `iap_audit_analyst`) may neither create
/// tables nor take the pipeline's locks, and needs neither to read flags and decide. It checks that the schema is
/// current instead (migration 0039 lets the analyst role read the ledgers that says so).
package final class TriageDesk {
    let connection: Connection

    package init(settings: Settings, logger: Logger) throws {
        // As every command that only reads: a schema older than this binary's (or none, so no triage log yet) is
        // refused with the way to upgrade it, never read with queries written for another.
        connection = try settings.database.connect(
            environment: settings.environment, logger: logger, schema: .requireCurrent)
        // A decision waits for the flag's row while detect rewrites it: bounded, as every wait of the pipeline is.
        try connection.query(
            "SELECT set_config('lock_timeout', $1, false)", ["\(Int(settings.lockTimeout * 1000))ms"],
            context: "set the lock timeout")
    }

    /// A desk on a connection already open and migrated (the pipeline's own, for the demo's decisions in a run).
    init(connection: Connection) {
        self.connection = connection
    }

    /// The flags `filter` selects, most severe first, then oldest first.
    package func list(_ filter: FlagFilter) throws -> [FlagLine] {
        try lines(
            [
                filter.rule, filter.severity, filter.status, filter.olderThanDays, filter.newerThanDays,
                filter.subject, filter.limit, nil,
            ], context: "list flags")
    }

    /// One flag with its evidence and every decision on it; nil when there is no such flag.
    package func show(id: Int64) throws -> FlagDetail? {
        guard let line = try lines([nil, nil, nil, nil, nil, nil, nil, id], context: "show flag \(id)").first else {
            return nil
        }
        let rows = try reading("show flag \(id)") {
            try connection.query(SQLQuery.triageFlagDetail.text, [id], context: "show flag \(id)")
        }
        guard let row = rows.allRows.first else { return nil }
        return FlagDetail(
            line: line, windowStart: try row.string("window_start"), windowEnd: try row.string("window_end"),
            updatedAt: try row.decode(String.self, "updated_at"), evidence: try row.decode(String.self, "evidence"),
            decisions: try decisions(of: id))
    }

    /// A flag's decision log, oldest first.
    func decisions(of id: Int64) throws -> [DecisionRecord] {
        let rows = try reading("read the decisions of flag \(id)") {
            try connection.query(
                SQLQuery.triageFlagDecisions.text, [id], context: "read the decisions of flag \(id)")
        }
        return try rows.allRows.map(Self.decision)
    }

    static func decision(_ row: QueryResult.Row) throws -> DecisionRecord {
        DecisionRecord(
            id: Int64(try row.decode(Int.self, "id")), flagID: Int64(try row.decode(Int.self, "flag_id")),
            action: try row.decode(String.self, "action"), reason: try row.string("reason"),
            note: try row.decode(String.self, "note"), actor: try row.decode(String.self, "actor"),
            databaseUser: try row.decode(String.self, "database_user"),
            decidedAt: try row.decode(String.self, "decided_at"), ruleVersion: try row.decode(Int.self, "rule_version"),
            statusAfter: try row.decode(String.self, "status_after"))
    }

    /// The flags `triage_flags.sql` selects with `parameters` (its filters, in order).
    private func lines(_ parameters: [(any PostgresParameter)?], context: String) throws -> [FlagLine] {
        let rows = try reading(context) {
            try connection.query(SQLQuery.triageFlags.text, parameters, context: context)
        }
        return try rows.allRows.map(Self.line)
    }

    private static func line(_ row: QueryResult.Row) throws -> FlagLine {
        FlagLine(
            id: Int64(try row.decode(Int.self, "id")), rule: try row.decode(String.self, "rule"),
            ruleVersion: try row.decode(Int.self, "rule_version"), severity: try row.decode(String.self, "severity"),
            subjectKind: try row.decode(String.self, "subject_kind"),
            subjectKey: try row.decode(String.self, "subject_key"), status: try row.decode(String.self, "status"),
            score: try row.decode(String.self, "score"), createdAt: try row.decode(String.self, "created_at"),
            ageDays: try row.decode(Int.self, "age_days"), lastAction: try row.string("last_action"),
            lastActor: try row.string("last_actor"))
    }

    /// Runs a read, turning a refusal of the role into a configuration error that says what is missing.
    func reading<T>(_ what: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.sqlState == "42501" {
            throw IAPAuditError.configuration(
                "the database refused to \(what) (\(error.message)): triage needs the iap_audit_analyst role's "
                    + "grants (docs/triage.md)")
        }
    }
}
