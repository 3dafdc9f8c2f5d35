-- Records the staged copies that disagree with the stored transaction on what Apple never changes (compared to the
-- second: some copies carry milliseconds, others only the text date), and returns the transactions concerned: the
-- loader keeps staging their copies for the rest of the run (see SettledTransactions). Runs after receipt_merge.sql.
WITH disagreeing AS (
    SELECT p.id AS purchase_id, s.receipt_id, s.source, s.ordinal, s.product_id, s.purchase_date,
        s.original_transaction_id, s.environment, s.transaction_id
    FROM stage_entry s
    -- LATERAL … LIMIT 1 (the key is unique) keeps this one index probe per staged copy: a hash join would read the
    -- whole purchase table for every file.
    CROSS JOIN LATERAL (
        SELECT id, product_id, purchase_date, original_transaction_id
        FROM purchase
        WHERE environment = s.environment AND transaction_id = s.transaction_id
        LIMIT 1
    ) p
    WHERE p.product_id IS DISTINCT FROM s.product_id
       OR date_trunc('second', p.purchase_date) IS DISTINCT FROM date_trunc('second', s.purchase_date)
       OR p.original_transaction_id IS DISTINCT FROM s.original_transaction_id
), recorded AS (
    INSERT INTO purchase_conflict (purchase_id, receipt_id, source, ordinal, product_id, purchase_date,
        original_transaction_id)
    SELECT purchase_id, receipt_id, source, ordinal, product_id, purchase_date, original_transaction_id
    FROM disagreeing
    ON CONFLICT (receipt_id, source, ordinal) DO NOTHING
)
SELECT DISTINCT environment, transaction_id FROM disagreeing;
