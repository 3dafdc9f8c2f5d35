import Foundation
import IAPAudit
import Postgres
import Testing

/// A receipt whose date forms disagree is stored as read and flagged by `forged-fields`; an honest one is not.
@Suite struct DateDisagreementDetectionTests {
    /// Line 1 is honest; line 2's second purchase has a text date two days after its `_ms` (2014-03-01 07:00 UTC);
    /// line 3 says the same as line 2 but Apple refused it (status 21003 is no sale, so nothing to flag).
    static let receipts = """
        {"application_username": "erin@example.com", "response": {"status": 0, "environment": "Production", \
        "receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "product_id": "coins", \
        "transaction_id": "9001", "purchase_date_ms": "1393657200000", "purchase_date": "2014-03-01 07:00:00 Etc/GMT", \
        "purchase_date_pst": "2014-02-28 23:00:00 America/Los_Angeles"}]}}}
        {"application_username": "mallory@example.com", "response": {"status": 0, "environment": "Production", \
        "receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "product_id": "coins", \
        "transaction_id": "9002", "purchase_date_ms": "1393657200000"}, {"quantity": "1", "product_id": "coins", \
        "transaction_id": "9003", "purchase_date_ms": "1393657200000", "purchase_date": "2014-03-03 07:00:00 Etc/GMT"}]}}}
        {"application_username": "trent@example.com", "response": {"status": 21003, "receipt": {"bundle_id": \
        "com.example.game", "in_app": [{"product_id": "coins", "transaction_id": "9004", \
        "purchase_date_ms": "1393657200000", "purchase_date": "2014-03-03 07:00:00 Etc/GMT"}]}}}

        """

    @Test func flagsTheReceiptWhoseDateFormsDisagreeWithTheFieldInEvidence() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("r.jsonl", Self.receipts)])
        #expect(try test.quarantined().isEmpty)
        // Stored as read: the `_ms` value is kept, the disagreement is noted on the receipt only.
        #expect(
            try test.connection.query("SELECT purchase_date::text FROM purchase WHERE transaction_id = '9003'").rows
                == [["2014-03-01 07:00:00+00"]])
        #expect(
            try test.connection.query("SELECT line FROM receipt WHERE date_disagreements IS NOT NULL ORDER BY line")
                .rows == [["2"], ["3"]])

        _ = try test.workspace.detect(rebuildStoreAccounts: true)
        let flagged = try test.connection.query(
            """
            SELECT r.line::text, p ->> 'problem', p ->> 'field', p ->> 'kept_member', p ->> 'kept',
                   p ->> 'other_member', p ->> 'other', p ->> 'difference'
            FROM flag f
            JOIN receipt r ON r.id::text = f.subject_key
            CROSS JOIN LATERAL jsonb_array_elements(f.evidence -> 'problems') p
            WHERE f.rule = 'forged-fields'
            ORDER BY r.line
            """)
        #expect(
            flagged.rows == [
                [
                    "2", "date forms disagree", "response.receipt.in_app[1].purchase_date", "purchase_date_ms",
                    "2014-03-01 07:00:00+00", "purchase_date", "2014-03-03 07:00:00+00", "2 days",
                ]
            ])
    }

    @Test func theRuleFindsThemThroughAPartialIndex() throws {
        let test = try TestWorkspace()
        // On an empty table the planner would scan it anyway; forbid that to see that the index can serve the rule.
        try test.connection.execute(script: "SET enable_seqscan = off")
        let plan = try test.connection.query(
            "EXPLAIN SELECT id FROM receipt WHERE date_disagreements IS NOT NULL AND status = 0"
        ).rows.compactMap { $0.first ?? nil }.joined(separator: "\n")
        #expect(plan.contains("receipt_date_disagreements_idx"))
    }
}
