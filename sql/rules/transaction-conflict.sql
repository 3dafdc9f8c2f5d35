-- rule: transaction-conflict
-- version: 1
-- subject: transaction
-- description: One (environment, transaction id) seen with a different product, purchase date or original
--   transaction: Apple never changes these. The key is the transaction id (prefixed "sandbox:" in the sandbox).
-- $1: the rule's settings (jsonb; none used).
WITH s AS (
    SELECT $1::jsonb AS settings
),
-- The conflicting copies with their transaction's key, from the copy's own row (purchase_id names the same
-- purchase). Kept apart, so that on Citus only these few rows travel to the transactions' workers; joined on
-- purchase's id, every transaction moved (4 s at 10,000 entries). PostgreSQL probes the keys as it probed the ids.
conflict AS MATERIALIZED (
    SELECT c.*, rp.environment, rp.transaction_id
    FROM purchase_conflict c
    JOIN receipt_purchase rp ON rp.receipt_id = c.receipt_id AND rp.source = c.source AND rp.ordinal = c.ordinal
)
SELECT 'transaction' AS subject_kind,
       CASE WHEN p.environment = 'Production' THEN p.transaction_id ELSE 'sandbox:' || p.transaction_id END
           AS subject_key,
       'high' AS severity,
       least(p.purchase_date, min(c.purchase_date)) AS window_start,
       greatest(p.purchase_date, max(c.purchase_date)) AS window_end,
       count(*)::numeric AS score,
       jsonb_build_object(
           'environment', p.environment, 'transaction_id', p.transaction_id,
           'stored', jsonb_build_object('receipt_id', p.first_receipt_id, 'product_id', p.product_id,
                                        'purchase_date', p.purchase_date,
                                        'original_transaction_id', p.original_transaction_id),
           'conflicting_copies', jsonb_agg(jsonb_build_object('receipt_id', c.receipt_id, 'source', c.source,
                                               'ordinal', c.ordinal, 'product_id', c.product_id,
                                               'purchase_date', c.purchase_date,
                                               'original_transaction_id', c.original_transaction_id)
                                           ORDER BY c.receipt_id, c.source, c.ordinal)
       ) AS evidence
FROM conflict c
CROSS JOIN s
JOIN purchase p ON p.environment = c.environment AND p.transaction_id = c.transaction_id
GROUP BY p.environment, p.transaction_id
