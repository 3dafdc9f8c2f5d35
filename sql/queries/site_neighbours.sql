-- The subjects one step from the flagged ones, which the report site also gives a page (docs/reports.md): the store
-- accounts of flagged app accounts, the app accounts of flagged store accounts, and the app accounts of flagged
-- transactions and receipts. $1 kinds and $2 keys of the flagged subjects, as parallel arrays.
WITH flagged AS (SELECT * FROM unnest($1::text[], $2::text[]) AS s (kind, key))
SELECT DISTINCT 'store-account' AS kind, ap.store_account_key AS key
FROM flagged s JOIN account_purchase ap ON s.kind = 'app-account' AND ap.account_key = s.key
WHERE ap.store_account_key IS NOT NULL
UNION
SELECT DISTINCT 'app-account', ap.account_key
FROM flagged s JOIN account_purchase ap ON s.kind = 'store-account' AND ap.store_account_key = s.key
UNION
SELECT DISTINCT 'app-account', r.account_key
FROM flagged s
JOIN receipt_purchase rp ON s.kind = 'transaction' AND rp.transaction_id = s.key
JOIN receipt r ON r.id = rp.receipt_id
WHERE r.account_key IS NOT NULL
UNION
SELECT DISTINCT 'app-account', r.account_key
FROM flagged s
JOIN receipt r ON r.id = CASE WHEN s.kind = 'receipt' AND s.key ~ '^[0-9]{1,18}$' THEN s.key::bigint END
WHERE r.account_key IS NOT NULL
