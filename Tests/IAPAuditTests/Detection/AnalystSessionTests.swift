import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// An analyst's session, however long it is left open, never blocks a run — and a run never blocks analysts.
@Suite struct AnalystSessionTests {
    static let receipts = """
        {"application_username": "dave@example.com", "response": {"status": 21003}}
        {"application_username": "erin@example.com", "response": {"status": 0, "environment": "Production", \
        "receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "product_id": "coins", \
        "transaction_id": "9001", "original_transaction_id": "9001", "purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}

        """

    @Test func anOpenAnalystTransactionDoesNotStallDetectOrOtherAnalysts() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("r.jsonl", Self.receipts)])
        _ = try test.workspace.detect(rebuildStoreAccounts: true)

        // A second real session, as the analyst role, idle in a transaction that has read every view detect refreshes
        // or rewrites.
        let analyst = try Connection(
            conninfo: test.conninfo, applicationName: "analyst-psql", logger: TestPostgres.logger)
        try analyst.execute(script: "SET ROLE iap_audit_analyst; BEGIN")
        for view in ["account_history", "receipt_summary", "account_purchase", "store_account_members", "flags_open"] {
            _ = try analyst.query("SELECT count(*) FROM \(view)")
        }

        // Were detect to wait for the analyst after all, fail within seconds instead of hanging the suite.
        try test.connection.execute(script: "SET lock_timeout = '10s'")
        // More data arrives; detect (including a store-account rebuild) must finish while that transaction stays open.
        let more = #"{"application_username": "frank@example.com", "response": {"status": 21003}}"# + "\n"
        _ = try test.workspace.ingestReceipts(paths: [try test.write("more.jsonl", more)])
        _ = try test.workspace.detect(rebuildStoreAccounts: true)
        #expect(try test.count("SELECT count(*) FROM flag WHERE rule = 'invalid-receipts'") == 2)

        // A third session (another analyst) reads while the first is still open.
        let other = try Connection(conninfo: test.conninfo, applicationName: "analyst-2", logger: TestPostgres.logger)
        try other.execute(script: "SET ROLE iap_audit_analyst; SET statement_timeout = '5s'")
        #expect(try other.query("SELECT count(*) FROM receipt_summary").int(0, 0) == 3)
        try analyst.execute(script: "ROLLBACK")
    }
}
