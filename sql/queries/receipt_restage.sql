-- After receipt_drop_duplicates.sql dropped staged copies with records stored before (a recorder's retry): which of
-- their transactions a kept record of the same file links too, and those transactions' remaining staged copies,
-- removed. Such a record may hold a copy the loader skipped as a repeat of a dropped one (TransactionCopies), so the
-- loader stages each returned transaction's copies again, from a second read of the file without the dropped records
-- (ReceiptIngest+RetriedRecords). Runs in the file's transaction, only when the drop returned transactions.
-- $1: the file's id; $2: the dropped copies' transaction ids. Returns the transactions to stage again (the same id
-- in another environment too: staged again, its copies come out the same), then the ids of the dropped records.
-- One statement, one round trip, and no temporary table left in the session.
WITH restaged AS MATERIALIZED (
    SELECT DISTINCT environment, transaction_id
    FROM receipt_purchase
    WHERE receipt_id >= $1::bigint * 4294967296 AND receipt_id < ($1::bigint + 1) * 4294967296
      AND transaction_id = ANY ($2::text[])
), removed AS (
    DELETE FROM stage_entry s
    USING restaged r
    WHERE s.environment = r.environment AND s.transaction_id = r.transaction_id
)
SELECT environment, transaction_id, NULL::bigint AS retried_id FROM restaged
UNION ALL
SELECT NULL, NULL, id FROM stage_duplicate;
