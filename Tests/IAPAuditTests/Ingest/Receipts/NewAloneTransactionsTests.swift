import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// `receipt_compare_copies.sql` looks up no copy of a transaction the merge stored from its file's only staged copy
/// (`stage_new_alone`): that row is the copy, so comparing them finds nothing. Only such transactions may be noted:
/// one stored before, or one with a second staged copy (which may disagree, bring an expiry or a refund), must still
/// be compared.
struct NewAloneTransactionsTests {
    @Test func theMergeNotesOnlyTransactionsStoredFromTheirOnlyStagedCopy() throws {
        let test = try TestWorkspace()
        let connection = test.connection
        let (noted, filled) = try connection.transaction { () throws -> ([String], Bool?) in
            try connection.execute(script: SQLQuery.receiptStage.text)
            try connection.execute(
                script: """
                    INSERT INTO purchase (environment, transaction_id, product_id, quantity, first_receipt_id)
                    VALUES ('Production', 'stored', 'p', 1, 1);
                    INSERT INTO stage_entry (receipt_id, source, ordinal, environment, transaction_id, product_id,
                        quantity, expires_date)
                    VALUES (10, 'in_app', 0, 'Production', 'alone', 'p', 1, NULL),
                        (10, 'in_app', 1, 'Production', 'twice', 'p', 1, NULL),
                        (11, 'in_app', 0, 'Production', 'twice', 'p', 1, '2026-01-01 00:00:00+00'),
                        (11, 'in_app', 1, 'Production', 'stored', 'p', 1, NULL),
                        (11, 'in_app', 2, 'Sandbox', 'alone', 'p', 1, NULL);
                    """)
            try connection.execute(script: SQLQuery.receiptMerge.text)
            let noted = try connection.query(
                "SELECT environment || '/' || transaction_id AS noted FROM stage_new_alone ORDER BY 1"
            ).allRows.map { try $0.decode(String.self, "noted") }
            _ = try connection.runQueryFile(.receiptCompareCopies, context: "compare")
            let filled = try connection.query(
                """
                SELECT expires_date = timestamptz '2026-01-01 00:00:00+00' AS filled
                FROM purchase WHERE transaction_id = 'twice'
                """
            ).first(Bool?.self, "filled")
            return (noted, filled)
        }
        #expect(noted == ["Production/alone", "Sandbox/alone"])
        // The second copy of a new transaction is still compared: it gives the stored row its expiry.
        #expect(filled == true)
    }
}
