internal import Foundation
internal import Postgres

/// `iap-audit erase` (docs/privacy.md, "Erasure"): one customer's account key and app account tokens removed from
/// every table and stored record, sales kept anonymous, in one transaction, logged in `erasure`. Runs alone under the
/// pipeline's lock (no ingest or detect in between) and is recorded as a run whose settings name the kind of
/// identifier only.
package struct EraseStage: PipelineStage {
    package let request: ErasureRequest
    /// The report folder to clean after the database (nil: none).
    package let reportDirectory: String?

    package init(request: ErasureRequest, reportDirectory: String?) {
        self.request = request
        self.reportDirectory = reportDirectory
    }

    package var name: String { "erase" }
    package var summaryKey: String { "erasure" }
    package var recordedSettings: [String: String] { ["requested_by": request.requestedBy] }

    package func run(in session: StageSession) throws -> ErasureSummary {
        var (summary, identifiers) = try eraseFromTheDatabase(in: session)
        if let reportDirectory {
            let reports = ErasedReports(directory: reportDirectory, identifiers: identifiers)
            (summary.reportFilesRewritten, summary.reportFilesStillNaming) = try reports.rewrite(
                with: session.workspace)
        }
        return summary
    }

    /// The erasure itself, in one transaction; returns what it did and the identifiers it erased.
    private func eraseFromTheDatabase(in session: StageSession) throws -> (ErasureSummary, ErasedIdentifiers) {
        let connection = session.workspace.connection
        return try connection.transaction {
            try connection.runQueryFile(
                .erasePrepare, parameters: [request.accountKey, request.appAccountToken],
                context: "erase: find what to erase")
            let keys = try connection.query("SELECT key FROM erase_key", context: "erase: the keys")
                .allRows.map { try $0.decode(String.self, "key") }
            let tokens = try connection.query(
                "SELECT token::text AS token FROM erase_token", context: "erase: the tokens"
            )
            .allRows.map { try $0.decode(String.self, "token") }
            let identifiers = ErasedIdentifiers(keys: keys, tokens: tokens)
            try redactRecords(identifiers, on: connection)
            try findQuarantineExcerpts(identifiers, on: connection)
            let counts = try connection.runQueryFile(.eraseApply, context: "erase: remove the identifiers")
            var rows: [String: Int] = [:]
            for row in counts?.allRows ?? [] {
                rows[try row.decode(String.self, "name")] = try row.decode(Int.self, "rows")
            }
            let logged = try connection.runQueryFile(
                .eraseLog, parameters: [session.runID, request.actor, request.requestedBy, request.reference],
                context: "erase: log the erasure")
            guard let logged else { throw IAPAuditError.internalInconsistency("erase_log.sql returned nothing") }
            let summary = ErasureSummary(
                erasureID: try logged.first(Int64.self, "id"), accountKeys: keys.count, tokens: tokens.count,
                rows: rows, decisionNotesNamingCustomer: try notesNaming(identifiers, on: connection))
            return (summary, identifiers)
        }
    }

    /// Gives each candidate record its text without the identifiers (erase_receipt.new_raw; NULL: unchanged).
    private func redactRecords(_ identifiers: ErasedIdentifiers, on connection: Connection) throws {
        let candidates = try connection.query(
            "SELECT id, raw, is_customers FROM erase_receipt ORDER BY id", context: "erase: read the records")
        for row in candidates.allRows {
            let isCustomers = try row.decode(Bool.self, "is_customers")
            guard let redacted = identifiers.redacted(try row.decode(String.self, "raw"), envelopeFields: isCustomers)
            else { continue }
            try connection.query(
                "UPDATE erase_receipt SET new_raw = $2 WHERE id = $1", [try row.decode(Int64.self, "id"), redacted],
                context: "erase: redact a record")
        }
    }

    /// Quarantine excerpts are bytes of unreadable records: searched as Latin-1 text, which every byte is, so an
    /// identifier (ASCII) or a JWS in one is found however the rest of the excerpt is encoded.
    private func findQuarantineExcerpts(_ identifiers: ErasedIdentifiers, on connection: Connection) throws {
        let excerpts = try connection.query(
            "SELECT id, convert_from(excerpt, 'LATIN1') AS excerpt FROM quarantine WHERE excerpt IS NOT NULL",
            context: "erase: read the quarantine's excerpts")
        for row in excerpts.allRows where identifiers.isMentioned(in: try row.decode(String.self, "excerpt")) {
            try connection.query(
                "INSERT INTO erase_quarantine VALUES ($1)", [try row.decode(Int64.self, "id")],
                context: "erase: a quarantine excerpt")
        }
    }

    /// Triage notes are appended only (sql/0031): one that names the customer is counted and told, never changed.
    private func notesNaming(_ identifiers: ErasedIdentifiers, on connection: Connection) throws -> Int {
        let notes = try connection.query(
            "SELECT id, note FROM flag_decision WHERE note <> ''", context: "erase: read the triage notes")
        return try notes.allRows.filter { identifiers.isMentioned(in: try $0.decode(String.self, "note")) }.count
    }

    package func summaryLines(_ summary: ErasureSummary, context: SummaryContext) -> [String] {
        let reports =
            summary.reportFilesRewritten > 0
            ? [
                "reports: \(summary.reportFilesRewritten) file(s) named the customer; the report folder was written again"
            ]
            : []
        guard summary.foundAnything else {
            return [
                "nothing held this customer: no row changed (erasure \(summary.erasureID) logged). Erased already, or "
                    + "never stored; with a pepper configured, pass the stored key (iap-audit hash-username NAME), "
                    + "not Apple's hash"
            ] + reports
        }
        let tables = summary.rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return [
            "erased: \(summary.accountKeys) account key(s), \(summary.tokens) app account token(s); "
                + "erasure \(summary.erasureID) logged",
            "rows changed: " + tables.joined(separator: ", "),
            "kept: every purchase and report row (anonymous), so reconciliation and month-end totals are unchanged",
        ] + reports
    }

    /// Files of the report folder that still name the customer after it was written again (written by an older
    /// version, or by hand) leave the erasure unfinished: exit 73 (EX_CANTCREAT), naming them.
    package func outcome(of summary: ErasureSummary, in session: StageSession) -> StageOutcome {
        summary.reportFilesStillNaming.isEmpty ? .succeeded : .failed(exitCode: 73)
    }

    package func problems(_ summary: ErasureSummary) -> [String] {
        let files = summary.reportFilesStillNaming.map {
            "\($0) in the report folder still names this customer: delete it (the database is erased)"
        }
        guard summary.decisionNotesNamingCustomer > 0 else { return files }
        return files + [
            "\(summary.decisionNotesNamingCustomer) triage note(s) name this customer in their free text; the triage "
                + "log is append-only and erase does not change it (docs/privacy.md, \"What erase does not reach\")"
        ]
    }
}
