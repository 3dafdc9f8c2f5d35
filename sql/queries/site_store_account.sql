-- The store-account pages of a batch of report-site pages: each store account's original transactions and the app
-- accounts that posted each. $1 store account keys; each row comes with its store account.
SELECT m.store_account_key, m.original_transaction_id,
       to_char(m.first_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS first_purchase_utc,
       to_char(m.last_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS last_purchase_utc,
       m.holds_ownable,
       (SELECT string_agg(DISTINCT ap.account_key, ' ') FROM account_purchase ap
        WHERE ap.original_transaction_id = m.original_transaction_id) AS app_accounts
FROM store_account_member m
WHERE m.store_account_key = ANY($1::text[])
ORDER BY m.store_account_key, m.first_purchase_date, m.original_transaction_id
