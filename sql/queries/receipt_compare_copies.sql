-- Compares the staged copies with the stored transaction, after receipt_merge.sql. A copy that disagrees on what
-- Apple never changes (compared to the second: some copies carry milliseconds, others only the text date) is recorded
-- as a conflict; an agreeing copy that carries an expiry the stored transaction lacks gives it that expiry (the first
-- such copy in file order). Returns the conflicting transactions, and those whose state the file spoke of
-- (stage_observed): the loader keeps staging their copies for the rest of the run (see SettledTransactions).
WITH compared AS (
    SELECT p.id AS purchase_id, p.expires_date IS NULL AS stored_without_expiry, s.receipt_id, s.source, s.ordinal,
        s.product_id, s.purchase_date, s.original_transaction_id, s.expires_date, s.environment, s.transaction_id,
        (p.product_id IS DISTINCT FROM s.product_id
         OR date_trunc('second', p.purchase_date) IS DISTINCT FROM date_trunc('second', s.purchase_date)
         OR p.original_transaction_id IS DISTINCT FROM s.original_transaction_id) AS disagrees
    FROM stage_entry s
    -- LATERAL … LIMIT 1 (the key is unique) keeps this one index probe per staged copy: a hash join would read the
    -- whole purchase table for every file.
    CROSS JOIN LATERAL (
        SELECT id, product_id, purchase_date, original_transaction_id, expires_date
        FROM purchase
        WHERE environment = s.environment AND transaction_id = s.transaction_id
        LIMIT 1
    ) p
), interesting AS (
    SELECT * FROM compared WHERE disagrees OR (stored_without_expiry AND expires_date IS NOT NULL)
), recorded AS (
    INSERT INTO purchase_conflict (purchase_id, receipt_id, source, ordinal, product_id, purchase_date,
        original_transaction_id)
    SELECT purchase_id, receipt_id, source, ordinal, product_id, purchase_date, original_transaction_id
    FROM interesting
    WHERE disagrees
    ON CONFLICT (receipt_id, source, ordinal) DO NOTHING
), expiry_filled AS (
    UPDATE purchase p
    SET expires_date = f.expires_date, changed_receipt_id = f.receipt_id
    FROM (
        SELECT DISTINCT ON (purchase_id) purchase_id, expires_date, receipt_id
        FROM interesting
        WHERE NOT disagrees
        ORDER BY purchase_id, receipt_id, source, ordinal
    ) f
    WHERE p.id = f.purchase_id
)
SELECT environment, transaction_id FROM interesting WHERE disagrees
UNION
SELECT environment, transaction_id FROM stage_observed;
