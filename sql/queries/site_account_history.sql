-- The history of the app accounts of a batch of report-site pages, as the `account` report shows one account's: its
-- receipts, transactions, store accounts and flags, oldest first. $1 account keys; each row comes with its account.
SELECT h.account_key,
       to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS at_utc,
       h.kind,
       h.ref,
       h.detail::text AS detail,
       h.price::text AS price,
       h.currency
FROM account_history h
WHERE h.account_key = ANY($1::text[])
-- The order of the `account` report.
ORDER BY h.account_key, h.at NULLS FIRST, h.kind, h.ref, (h.detail ->> 'receipt_id')::bigint, h.detail
