-- The transaction pages of a batch of report-site pages: every receipt that listed each transaction, with its file,
-- line and app account, and what that copy said, with the transaction's state history ("refunded 2025-03-05,
-- reversed 2025-03-12"). $1 transaction ids; each row comes with its transaction id.
-- The copies are joined to their transactions in a subquery of tables alone, the rest outside it: Citus joins the
-- two (split by different columns) only so (docs/scale.md). PostgreSQL flattens it.
SELECT x.transaction_id, x.environment, x.product_id, x.original_transaction_id,
       to_char(x.purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS purchase_utc,
       to_char(x.cancellation_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS cancellation_utc,
       i.path AS file, x.line, x.source, x.account_key, x.status, x.bundle_id,
       m.store_account_key, h.history
FROM (
    SELECT p.transaction_id, p.environment, p.product_id, p.original_transaction_id, p.purchase_date,
           p.cancellation_date, r.file_id, r.line, rp.source, rp.ordinal, r.account_key, r.status, r.bundle_id,
           r.recorded_at, r.id AS receipt_id
    FROM purchase p
    JOIN receipt_purchase rp ON rp.environment = p.environment AND rp.transaction_id = p.transaction_id
    JOIN receipt r ON r.id = rp.receipt_id
    -- Both environments named, so the transaction key's index (environment first) is probed, not read whole.
    WHERE p.environment IN ('Production', 'Sandbox') AND p.transaction_id = ANY($1::text[])
) x
JOIN input_file i ON i.id = x.file_id
LEFT JOIN store_account_member m ON x.environment = 'Production'
    AND m.original_transaction_id = coalesce(x.original_transaction_id, x.transaction_id)
LEFT JOIN LATERAL (
    SELECT string_agg(c.change || ' ' || to_char(c.signed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ', '
               ORDER BY c.signed_at NULLS FIRST, c.receipt_id) AS history
    FROM purchase_state_change c
    WHERE c.environment = x.environment AND c.transaction_id = x.transaction_id
) h ON true
ORDER BY x.transaction_id, x.environment, x.recorded_at NULLS FIRST, x.receipt_id, x.source, x.ordinal
