import AppStoreFormats
import Foundation
import Postgres
import TestSupport

@testable import IAPAudit

/// A database with flags to triage: one not-authentic receipt (status 21003) each from two app accounts, so the
/// invalid-receipts rule raises one flag per account; `more` brings a second receipt of the first account, whose flag's
/// evidence then grows.
struct TriageFixture {
    let test: TestWorkspace

    static let receipts = """
        {"application_username": "carol@example.com", "recorded_at": "2026-03-01T10:00:00Z", \
        "response": {"status": 21003}}
        {"application_username": "dave@example.com", "recorded_at": "2026-03-01T11:00:00Z", \
        "response": {"status": 21003}}

        """
    static let more = """
        {"application_username": "carol@example.com", "recorded_at": "2026-03-02T10:00:00Z", \
        "response": {"status": 21003}}

        """

    init() throws {
        test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("r.jsonl", Self.receipts)])
        _ = try test.workspace.detect()
    }

    /// The two flags' ids, carol's first.
    func flagIDs() throws -> [Int64] {
        let carol = test.workspace.settings.hasher.key(forUsername: "carol@example.com")
        return try test.connection.query(
            "SELECT id FROM flag WHERE rule = 'invalid-receipts' ORDER BY subject_key = $1 DESC, id", [carol]
        ).rows.map { Int64($0[0] ?? "") ?? -1 }
    }

    /// Runs the binary against this database (as the analyst role with `asAnalyst`: the pipeline's login, switched
    /// to iap_audit_analyst at connection start, as an analyst's own login would be).
    func run(
        _ arguments: [String], asAnalyst: Bool = false, environment: [String: String] = [:]
    ) throws
        -> BinaryUnderTest.Outcome
    {
        let database = asAnalyst ? test.conninfo + " options='-c role=iap_audit_analyst'" : test.conninfo
        return try BinaryUnderTest.run(
            arguments + ["--database-url", database], environment: environment, timeout: 300)
    }

    /// The flag's status and its log's actions, oldest first.
    func trail(_ id: Int64) throws -> (status: String, actions: [String]) {
        let status = try test.connection.query("SELECT status FROM flag WHERE id = $1", [id]).requireString(0, 0)
        let actions = try test.connection.query(
            "SELECT action || coalesce(':' || reason, '') FROM flag_decision WHERE flag_id = $1 ORDER BY id", [id]
        ).rows.map { $0[0] ?? "" }
        return (status, actions)
    }
}
