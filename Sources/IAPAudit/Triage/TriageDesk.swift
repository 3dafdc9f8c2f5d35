package import Logging
internal import Postgres

/// Triage (docs/triage.md): lists flags, shows one with its evidence and decision log, and appends decisions through
/// the database's `flag_decide` function, the only write an analyst's role is granted.
///
/// It opens the database without migrating: an analyst's login (a member of `iap_audit_analyst`) may neither create
/// tables nor take the pipeline's locks, and needs neither to read flags and decide.
package final class TriageDesk {
    let connection: Connection

    package init(settings: Settings, logger: Logger) throws {
        connection = try settings.database.connect(environment: settings.environment, logger: logger, migrating: false)
        // A decision waits for the flag's row while detect rewrites it: bounded, as every wait of the pipeline is.
        try connection.query(
            "SELECT set_config('lock_timeout', $1, false)", ["\(Int(settings.lockTimeout * 1000))ms"],
            context: "set the lock timeout")
        let hasLog = try connection.query("SELECT to_regclass('flag_decision') IS NOT NULL", context: "find the log")
        guard try hasLog.requireBool(0, 0) else {
            throw IAPAuditError.configuration(
                "this database has no triage log yet: run any pipeline command (iap-audit init) as the pipeline's "
                    + "role first, so its migrations add it")
        }
    }

    /// A desk on a connection already open and migrated (the pipeline's own, for the demo's decisions in a run).
    init(connection: Connection) {
        self.connection = connection
    }

    /// The flags `filter` selects, most severe first, then oldest first.
    package func list(_ filter: FlagFilter) throws -> [FlagLine] {
        let rows = try reading("list flags") {
            try connection.query(
                Self.lineQuery() + """
                    WHERE ($1::text IS NULL OR t.rule = $1) AND ($2::text IS NULL OR t.severity = $2)
                      AND ($3::text IS NULL OR t.status = $3)
                      AND ($4::integer IS NULL OR t.created_at <= now() - make_interval(days => $4::integer))
                      AND ($5::integer IS NULL OR t.created_at > now() - make_interval(days => $5::integer))
                      AND ($6::text IS NULL OR t.subject_key = $6)
                    ORDER BY CASE t.severity WHEN 'high' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, t.created_at, t.id
                    LIMIT $7::bigint
                    """,
                [
                    filter.rule, filter.severity, filter.status, filter.olderThanDays, filter.newerThanDays,
                    filter.subject, filter.limit,
                ], context: "list flags")
        }
        return try rows.allRows.map(Self.line)
    }

    /// One flag with its evidence and every decision on it; nil when there is no such flag.
    package func show(id: Int64) throws -> FlagDetail? {
        let rows = try reading("show flag \(id)") {
            try connection.query(
                Self.lineQuery(
                    adding: "\(Self.utc("f.window_start")) AS window_start, \(Self.utc("f.window_end")) AS window_end, "
                        + "\(Self.utc("f.updated_at")) AS updated_at, jsonb_pretty(f.evidence) AS evidence")
                    + "JOIN flag f ON f.id = t.id WHERE t.id = $1", [id], context: "show flag \(id)")
        }
        guard rows.rowCount == 1 else { return nil }
        let row = rows.row(0)
        return FlagDetail(
            line: try Self.line(row), windowStart: try row.string("window_start"),
            windowEnd: try row.string("window_end"), updatedAt: try row.decode(String.self, "updated_at"),
            evidence: try row.decode(String.self, "evidence"), decisions: try decisions(of: id))
    }

    /// A flag's decision log, oldest first.
    func decisions(of id: Int64) throws -> [DecisionRecord] {
        let rows = try reading("read the decisions of flag \(id)") {
            try connection.query(
                Self.decisionColumns + " FROM flag_decision d WHERE d.flag_id = $1 ORDER BY d.id", [id],
                context: "read the decisions of flag \(id)")
        }
        return try rows.allRows.map(Self.decision)
    }

    static let decisionColumns = """
        SELECT d.id, d.flag_id, d.action, d.reason, d.note, d.actor, d.database_user, \(utc("d.decided_at")) AS decided_at,
               d.rule_version, d.status_after
        """

    static func decision(_ row: QueryResult.Row) throws -> DecisionRecord {
        DecisionRecord(
            id: Int64(try row.decode(Int.self, "id")), flagID: Int64(try row.decode(Int.self, "flag_id")),
            action: try row.decode(String.self, "action"), reason: try row.string("reason"),
            note: try row.decode(String.self, "note"), actor: try row.decode(String.self, "actor"),
            databaseUser: try row.decode(String.self, "database_user"),
            decidedAt: try row.decode(String.self, "decided_at"), ruleVersion: try row.decode(Int.self, "rule_version"),
            statusAfter: try row.decode(String.self, "status_after"))
    }

    /// The columns `line` reads (and `extra` after them) from the flag_triage view `t`.
    private static func lineQuery(adding extra: String? = nil) -> String {
        """
        SELECT t.id, t.rule, t.rule_version, t.severity, t.subject_kind, t.subject_key, t.status,
               round(t.score, 2)::text AS score, \(utc("t.created_at")) AS created_at,
               floor(extract(epoch FROM now() - t.created_at) / 86400)::integer AS age_days, t.last_action,
               t.last_actor
               \(extra.map { ", " + $0 } ?? "")
        FROM flag_triage t

        """
    }

    static func utc(_ column: String) -> String {
        "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS\"Z\"')"
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
