internal import Foundation
internal import Logging
internal import Postgres

/// Runs the fraud rules: updates the store-account clusters, brings the receipts and purchases the rules read up to
/// date, then runs each rule's SQL and writes its hits as flags.
///
/// Incremental (docs/decisions.md, "Incremental detection"): `sql/queries/detect_prepare.sql` folds only the receipts
/// of files not seen yet into `receipt_summary` and `account_purchase`, and queues the subjects whose data changed in
/// `detect_pending`; a rule whose SQL takes `$2` then evaluates only those subjects, and only its hits on them are
/// written. Every rule's answer for a subject depends on that subject's data alone, so the flags are those a run over
/// every subject writes. The run is full instead when asked, the first time, after the clusters were rebuilt, or when
/// the settings, a rule's version or the rules run differ from the last run's.
struct Detector {
    /// Memory each sort or hash of the detection SQL may use before spilling to disk. The default (4 MB) makes the
    /// million-row joins of clustering and the rules spill, which costs about 40% of their time; the session is
    /// one connection on a machine with gigabytes to spare.
    static let workMemory = "256MB"

    /// Advisory-lock key serialising detect runs ("IAPDETC" in ASCII): two at once would race on the flags.
    static let lockKey: Int64 = 0x4941_5044_4554_43

    let connection: Connection
    let logger: Logger

    func run(
        rules: [DetectionRule], settings: DetectionSettings, runID: Int64, rebuildStoreAccounts: Bool,
        full: Bool = false, stop: StopRequest = StopRequest()
    ) throws -> DetectionSummary {
        guard try connection.tryAdvisoryLock(Self.lockKey) else {
            throw IAPAuditError.locked(holder: try connection.advisoryLockHolder(Self.lockKey))
        }
        defer { try? connection.advisoryUnlock(Self.lockKey) }
        try connection.query("SELECT set_config('work_mem', $1, false)", [Self.workMemory], context: "set work_mem")
        defer { _ = try? connection.execute(script: "RESET work_mem", context: "reset work_mem") }

        // A rule file whose header cannot be read is a defect of this build: say which before any work.
        for rule in DetectionRule.allCases { try rule.checkHeader() }
        var summary = DetectionSummary()
        let clustering = try StoreAccountClustering(connection: connection, logger: logger)
            .update(runID: runID, rebuild: rebuildStoreAccounts)
        summary.storeAccounts.isRebuilt = clustering.isRebuilt
        summary.storeAccounts.filesRead = clustering.filesRead
        summary.storeAccounts.entriesRead = clustering.entriesRead
        summary.storeAccounts.clustersWritten = clustering.clustersWritten
        summary.storeAccounts.renamed = clustering.renamed
        summary.storeAccounts.seconds = clustering.seconds

        let state = try Self.state(settings: settings)
        let stored = try connection.detectionState(Self.rulesState)
        summary.fullReason = Self.fullReason(
            asked: full, clustersRebuilt: clustering.isRebuilt, stored: stored, current: state)
        let rebuild = summary.fullReason != nil
        let allRules = Set(rules) == Set(DetectionRule.allCases)
        if summary.fullReason == nil && !allRules { summary.fullReason = "only some rules run" }
        // A few subjects are looked up by index, but the planner cannot know how few: it would plan each statement
        // as if it read the tables whole (JIT-compiled, hashing them), which costs more than the statement.
        try connection.plannedForFewRows(if: summary.fullReason == nil) {
            summary.refreshSeconds = try timed {
                try connection.analyzeStaleTables(Self.tablesRead)
                try connection.transaction {
                    try connection.runQueryFile(
                        .detectPrepare, parameters: [runID, rebuild],
                        context: "bring receipts and purchases up to date")
                    // A rebuild queues nothing: should a rule fail before the end, the next run must be full again.
                    if rebuild {
                        try connection.query(
                            "DELETE FROM detection_state WHERE name = $1", [Self.rulesState],
                            context: "forget the last run's settings")
                    }
                }
                // Statistics for the rules' plans: a rebuild replaced every row (detect_prepare.sql took
                // receipt_summary's already); the queue changes every run.
                try connection.execute(
                    script: rebuild ? "ANALYZE account_purchase" : "ANALYZE detect_pending",
                    context: "analyze what the rules read")
            }
            summary.subjectsQueued = try connection.query("SELECT count(*) AS subjects FROM detect_pending")
                .first(Int.self, "subjects")
            for rule in rules {
                try stop.check()
                let everySubject = summary.fullReason != nil || !rule.readsQueuedSubjects()
                summary.rules.append(try run(rule, settings: settings, runID: runID, everySubject: everySubject))
            }
            // Only a run of every rule has answered for the queue; after one of some rules, the next run does all.
            try connection.transaction {
                if allRules { try connection.query("DELETE FROM detect_pending", context: "empty the detect queue") }
                try connection.recordDetectionState(Self.rulesState, allRules ? state : Self.someRulesState)
            }
        }
        return summary
    }

    /// The tables ingest writes that detect reads, whose statistics it brings up to date first
    /// (`analyzeStaleTables`); not `receipt`, which detect reads by key ranges only, and whose sample reads the raw
    /// records: a second and a half.
    private static let tablesRead = [
        "purchase", "receipt_purchase", "pending_renewal", "signed_object", "purchase_conflict", "store_account",
        "store_account_member",
    ]

    /// Why every subject must be evaluated and both tables rebuilt, or nil when the queued subjects are enough.
    private static func fullReason(asked: Bool, clustersRebuilt: Bool, stored: String?, current: String) -> String? {
        if asked { return "asked for" }
        if clustersRebuilt { return "the store accounts were rebuilt" }
        guard let stored else { return "no complete detect run recorded" }
        if stored == someRulesState { return "the last detect ran only some rules" }
        return stored == current ? nil : "the settings or rule versions differ from the last run's"
    }

    /// The name under which `detection_state` keeps what the last run's flags depend on.
    private static let rulesState = "rules"

    /// The recorded state after a run of some rules: the queue is still owed to the others.
    private static let someRulesState = "some rules"

    /// What the flags depend on besides the data: every rule's version and settings, as JSON text.
    private static func state(settings: DetectionSettings) throws -> String {
        let versions = try DetectionRule.allCases.map { "\"\($0.id)\": \(try $0.version())" }
        return "{\"versions\": {\(versions.joined(separator: ", "))}, \"settings\": \(try settings.jsonText())}"
    }

    /// Runs one rule in its own transaction: its hits into `detect_hit`, then merged into `flag`.
    /// With `everySubject` false, the rule evaluates the queued subjects only, and only hits on them are kept.
    private func run(
        _ rule: DetectionRule, settings: DetectionSettings, runID: Int64, everySubject: Bool
    ) throws
        -> DetectionSummary.RuleOutcome
    {
        let version = try rule.version()
        let parameters = try settings.jsonText(for: rule)
        var outcome = DetectionSummary.RuleOutcome(
            rule: rule.id, version: version, hits: 0, created: 0, updated: 0, seconds: 0)
        outcome.seconds = try timed {
            try connection.transaction {
                try connection.execute(script: SQLQuery.detectHitCreate.text, context: "create detect_hit")
                if everySubject && rule.hashesEverySubject() {
                    try connection.execute(script: "SET LOCAL enable_nestloop = off", context: "plan \(rule.id)")
                }
                // The rule's SELECT inside the one statement that keeps its hits (on the queued subjects only, unless
                // `$2`): composed here, as the rule is a file of its own.
                let inserted = try connection.query(
                    "INSERT INTO detect_hit SELECT * FROM (\n" + rule.sql() + "\n) AS hit\n"
                        + "WHERE $2::boolean OR (hit.subject_kind, hit.subject_key) IN "
                        + "(SELECT subject_kind, subject_key FROM detect_pending)",
                    [parameters, everySubject], context: "rule \(rule.id)")
                outcome.hits = inserted.affectedRows
                let written = try connection.query(
                    SQLQuery.flagUpsert.text, [rule.id, version, runID, parameters], context: "flags of \(rule.id)")
                for row in written.allRows {
                    if try row.decode(Bool.self, "inserted") { outcome.created += 1 } else { outcome.updated += 1 }
                }
                // Triage (docs/triage.md): a dismissed flag whose finding changed reopens, with a log row saying why.
                try connection.query(
                    "SELECT flag_reopen_changed($1, $2)", [rule.id, runID], context: "reopen changed flags")
            }
        }
        logger.info(
            "rule done",
            metadata: [
                "rule": "\(rule.id)", "hits": "\(outcome.hits)", "created": "\(outcome.created)",
                "updated": "\(outcome.updated)", "seconds": "\(String(format: "%.2f", outcome.seconds))",
            ])
        return outcome
    }

    private func timed(_ body: () throws -> Void) throws -> Double {
        let stopwatch = Stopwatch()
        try body()
        return stopwatch.seconds
    }
}

extension Connection {
    /// The value detect recorded under `name` in `detection_state`, nil when none.
    func detectionState(_ name: String) throws -> String? {
        try query(SQLQuery.detectionStateGet.text, [name], context: "read detection state \(name)")
            .allRows.first?.decode(String?.self, "value")
    }

    /// Records `value` under `name` in `detection_state`.
    func recordDetectionState(_ name: String, _ value: String) throws {
        try runQueryFile(.detectionStateSet, parameters: [name, value], context: "record detection state \(name)")
    }
}
