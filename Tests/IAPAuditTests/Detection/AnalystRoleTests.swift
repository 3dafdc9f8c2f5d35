import Foundation
import IAPAudit
import Postgres
import Testing

@Suite struct AnalystRoleTests {
    @Test func analystReadsTheViewsButNotRawReceiptsOrTheQuarantine() throws {
        let test = try TestWorkspace()
        let path = try test.write(
            "r.jsonl",
            """
            {"application_username": "carol@example.com", "response": {"status": 21003}}
            not json at all

            """)
        _ = try test.workspace.ingestReceipts(paths: [path])
        _ = try test.workspace.detect()
        #expect(try test.count("SELECT count(*) FROM quarantine") == 1)

        try test.connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { _ = try? test.connection.execute(script: "RESET ROLE") }
        for view in [
            "flags_open", "account_history", "store_account_clusters", "store_account_members",
            "rule_hits_daily", "flag", "reconciliation_line", "app", "product",
        ] {
            _ = try test.connection.query("SELECT * FROM \(view) LIMIT 1")
        }
        #expect(try test.count("SELECT count(*) FROM flags_open WHERE rule = 'invalid-receipts'") == 1)
        for refused in [
            "SELECT raw FROM receipt LIMIT 1", "SELECT * FROM quarantine LIMIT 1",
            "SELECT excerpt FROM quarantine LIMIT 1", "SELECT * FROM purchase LIMIT 1",
            "SELECT * FROM input_file LIMIT 1", "SELECT * FROM sales_report_row LIMIT 1",
        ] {
            let error = #expect(throws: PostgresError.self, "\(refused)") { try test.connection.query(refused) }
            #expect(error?.sqlState == "42501", "\(refused): \(error.map { "\($0)" } ?? "")")
        }
        #expect(throws: PostgresError.self) { try test.connection.query("DELETE FROM flag") }
    }

    @Test func analystCreatesNothingNotEvenTemporaryObjects() throws {
        let test = try TestWorkspace()
        try test.connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { _ = try? test.connection.execute(script: "RESET ROLE") }
        _ = try test.connection.query("SELECT * FROM receipt_summary LIMIT 1")
        _ = try test.connection.query("SELECT * FROM account_purchase LIMIT 1")
        for refused in [
            "CREATE TEMPORARY TABLE scratch (x int)",
            "CREATE TABLE public.scratch (x int)",
            "CREATE FUNCTION pg_temp.leak() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        ] {
            let error = #expect(throws: PostgresError.self, "\(refused)") {
                try test.connection.execute(script: refused)
            }
            #expect(error?.sqlState == "42501", "\(refused): \(error.map { "\($0)" } ?? "")")
        }
        try test.connection.execute(script: "RESET ROLE")
        // The pipeline's own role keeps what every stage needs.
        try test.connection.execute(script: "CREATE TEMPORARY TABLE scratch (x int); DROP TABLE scratch")
    }

    @Test func theRoleCannotLogIn() throws {
        let test = try TestWorkspace()
        let result = try test.connection.query("SELECT rolcanlogin FROM pg_roles WHERE rolname = 'iap_audit_analyst'")
        #expect(result.bool(0, 0) == false)
    }
}
