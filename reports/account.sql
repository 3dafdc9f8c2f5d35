-- title: Account drill-down
-- description: Everything about one app account, oldest first: its receipts, transactions, the store accounts it
--   paid from and its flags, with a transaction's price for one unit where the transaction says it (StoreKit 2;
--   blank for a legacy receipt's). Look the account up by its hash: iap-audit hash-username NAME.
-- param: account account_key -- the account key (what hash-username prints)
-- sensitive: false

SELECT to_char(h.at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS at_utc,
       h.kind,
       h.ref,
       h.price,
       h.currency,
       h.detail
FROM account_history h
WHERE h.account_key = $1
-- Copies of one transaction tie up to the reference: their receipt tells them apart without comparing their JSON.
ORDER BY h.at NULLS FIRST, h.kind, h.ref, (h.detail ->> 'receipt_id')::bigint, h.detail
