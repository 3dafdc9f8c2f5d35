internal import Foundation
internal import Logging
internal import Postgres

/// Runs the fraud rules: updates the store-account clusters, refreshes the receipts and purchases the rules read,
/// then runs each rule's SQL and writes its hits as flags.
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
        stop: StopRequest = StopRequest()
    ) throws -> DetectionSummary {
        guard try connection.tryAdvisoryLock(Self.lockKey) else {
            throw IAPAuditError.locked(holder: try connection.advisoryLockHolder(Self.lockKey))
        }
        defer { try? connection.advisoryUnlock(Self.lockKey) }
        try connection.query("SELECT set_config('work_mem', $1, false)", [Self.workMemory], context: "set work_mem")
        defer { try? connection.execute(script: "RESET work_mem", context: "reset work_mem") }

        var summary = DetectionSummary()
        let clustering = try StoreAccountClustering(connection: connection, logger: logger)
            .update(runID: runID, rebuild: rebuildStoreAccounts)
        summary.storeAccounts.isRebuilt = clustering.isRebuilt
        summary.storeAccounts.filesRead = clustering.filesRead
        summary.storeAccounts.entriesRead = clustering.entriesRead
        summary.storeAccounts.clustersWritten = clustering.clustersWritten
        summary.storeAccounts.renamed = clustering.renamed
        summary.storeAccounts.seconds = clustering.seconds

        // CONCURRENTLY: a plain refresh takes an ACCESS EXCLUSIVE lock, so an analyst's open transaction that read the
        // view would stall the run, and every analyst query would queue behind the run in turn.
        summary.refreshSeconds = try timed {
            try connection.execute(
                script: """
                    REFRESH MATERIALIZED VIEW CONCURRENTLY receipt_summary;
                    ANALYZE receipt_summary;
                    REFRESH MATERIALIZED VIEW CONCURRENTLY account_purchase;
                    ANALYZE account_purchase
                    """, context: "refresh receipts and purchases")
        }
        for rule in rules {
            try stop.check()
            summary.rules.append(try run(rule, settings: settings, runID: runID))
        }
        return summary
    }

    /// Runs one rule in its own transaction: its hits into `detect_hit`, then merged into `flag`.
    private func run(
        _ rule: DetectionRule, settings: DetectionSettings, runID: Int64
    ) throws
        -> DetectionSummary.RuleOutcome
    {
        let version = try rule.version()
        let parameters = try settings.jsonText(for: rule)
        var outcome = DetectionSummary.RuleOutcome(
            rule: rule.id, version: version, hits: 0, created: 0, updated: 0, seconds: 0)
        outcome.seconds = try timed {
            try connection.transaction {
                try connection.execute(
                    script: """
                        CREATE TEMPORARY TABLE detect_hit (
                            subject_kind text NOT NULL, subject_key text NOT NULL, severity text NOT NULL,
                            window_start timestamptz, window_end timestamptz, score numeric NOT NULL,
                            evidence jsonb NOT NULL
                        ) ON COMMIT DROP
                        """, context: "create detect_hit")
                let inserted = try connection.query(
                    "INSERT INTO detect_hit SELECT * FROM (\n" + (try rule.sql()) + "\n) AS hit",
                    [parameters], context: "rule \(rule.id)")
                outcome.hits = inserted.affectedRows
                let written = try connection.query(
                    try SQLResources.query("flag_upsert"), [rule.id, version, runID], context: "flags of \(rule.id)")
                for row in 0..<written.rowCount {
                    if try written.requireBool(row, 0) { outcome.created += 1 } else { outcome.updated += 1 }
                }
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
