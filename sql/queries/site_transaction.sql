-- The transaction pages of a batch of report-site pages: every receipt that listed each transaction, with its file,
-- line and app account, and what that copy said. $1 transaction ids; each row comes with its transaction id.
SELECT p.transaction_id, p.environment, p.product_id, p.original_transaction_id,
       to_char(p.purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS purchase_utc,
       to_char(p.cancellation_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS cancellation_utc,
       i.path AS file, r.line, rp.source, r.account_key, r.status, r.bundle_id,
       m.store_account_key
FROM purchase p
JOIN receipt_purchase rp ON rp.environment = p.environment AND rp.transaction_id = p.transaction_id
JOIN receipt r ON r.id = rp.receipt_id
JOIN input_file i ON i.id = r.file_id
LEFT JOIN store_account_member m ON p.environment = 'Production'
    AND m.original_transaction_id = coalesce(p.original_transaction_id, p.transaction_id)
-- Both environments named, so the transaction key's index (environment first) is probed, not read whole.
WHERE p.environment IN ('Production', 'Sandbox') AND p.transaction_id = ANY($1::text[])
ORDER BY p.transaction_id, p.environment, r.recorded_at NULLS FIRST, r.id, rp.source, rp.ordinal
