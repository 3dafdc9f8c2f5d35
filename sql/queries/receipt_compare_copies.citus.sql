-- receipt_compare_copies.sql's form for a Citus coordinator (docs/scale.md, "Citus"): the same conflicts recorded,
-- expiries filled and transactions returned. Citus cannot run that form's probe per copy into a distributed table
-- (LATERAL ... LIMIT 1); on plain PostgreSQL these steps make ingest slower (docs/scale.md), so it keeps that form.
-- Statements end with ';' at the end of a line; each runs in the file's transaction.
--
-- The stored transactions of the staged copies, by purchase's key: one index probe per transaction (and environment
-- of the file).
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
SELECT environment, transaction_id FROM stage_interesting WHERE disagrees
UNION
SELECT environment, transaction_id FROM stage_observed;
