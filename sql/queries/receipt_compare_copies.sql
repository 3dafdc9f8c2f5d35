-- Compares the staged copies with the stored transaction, after receipt_merge.sql. A copy that disagrees on what
-- Apple never changes (compared to the second: some copies carry milliseconds, others only the text date) is recorded
-- as a conflict; an agreeing copy that carries an expiry the stored transaction lacks gives it that expiry (the first
-- such copy in file order). Returns the conflicting transactions: the loader keeps staging their copies for the rest
-- of the run (see SettledTransactions).
-- Statements end with ';' at the end of a line; each runs in the file's transaction.
--
-- The stored transactions of the staged copies, by purchase's key: one index probe per transaction (and environment
-- of the file). Joined to the staged copies instead, the planner could hash the whole purchase table for every file;
-- and on Citus (docs/scale.md) a probe per copy into a distributed table (LATERAL … LIMIT 1) cannot run.
CREATE TEMPORARY TABLE stage_stored ON COMMIT DROP AS
SELECT id, environment, transaction_id, product_id, purchase_date, original_transaction_id, expires_date
FROM purchase
WHERE environment = ANY (ARRAY(SELECT DISTINCT environment FROM stage_entry))
  AND transaction_id = ANY (ARRAY(SELECT DISTINCT transaction_id FROM stage_entry));
-- The copies that disagree, or bring an expiry.
CREATE TEMPORARY TABLE stage_interesting ON COMMIT DROP AS
SELECT *
FROM (
    SELECT p.id AS purchase_id, p.expires_date IS NULL AS stored_without_expiry, s.receipt_id, s.source, s.ordinal,
        s.product_id, s.purchase_date, s.original_transaction_id, s.expires_date, s.environment, s.transaction_id,
        (p.product_id IS DISTINCT FROM s.product_id
         OR date_trunc('second', p.purchase_date) IS DISTINCT FROM date_trunc('second', s.purchase_date)
         OR p.original_transaction_id IS DISTINCT FROM s.original_transaction_id) AS disagrees
    FROM stage_entry s
    JOIN stage_stored p ON p.environment = s.environment AND p.transaction_id = s.transaction_id
) compared
WHERE disagrees OR (stored_without_expiry AND expires_date IS NOT NULL);
INSERT INTO purchase_conflict (purchase_id, receipt_id, source, ordinal, product_id, purchase_date,
    original_transaction_id)
SELECT purchase_id, receipt_id, source, ordinal, product_id, purchase_date, original_transaction_id
FROM stage_interesting
WHERE disagrees
ON CONFLICT (receipt_id, source, ordinal) DO NOTHING;
UPDATE purchase p
SET expires_date = f.expires_date, changed_receipt_id = f.receipt_id
FROM (
    SELECT DISTINCT ON (environment, transaction_id) environment, transaction_id, expires_date, receipt_id
    FROM stage_interesting
    WHERE NOT disagrees
    ORDER BY environment, transaction_id, receipt_id, source, ordinal
) f
WHERE p.environment = f.environment AND p.transaction_id = f.transaction_id;
SELECT DISTINCT environment, transaction_id FROM stage_interesting WHERE disagrees;
