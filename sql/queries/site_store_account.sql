-- The store-account pages of a batch of report-site pages: each store account's original transactions and the app
-- accounts that posted each. $1 store account keys; each row comes with its store account. The app accounts are read
-- by key for all the members at once, not per member: Citus runs no such subquery into a table split by another
-- column (docs/scale.md).
WITH member AS (
    SELECT m.store_account_key, m.original_transaction_id, m.first_purchase_date, m.last_purchase_date,
           m.holds_ownable
    FROM store_account_member m
    WHERE m.store_account_key = ANY($1::text[])
),
posted AS (
    SELECT ap.original_transaction_id, string_agg(DISTINCT ap.account_key, ' ') AS app_accounts
    FROM account_purchase ap
    WHERE ap.original_transaction_id = ANY (ARRAY(SELECT original_transaction_id FROM member))
    GROUP BY ap.original_transaction_id
)
SELECT m.store_account_key, m.original_transaction_id,
       to_char(m.first_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS first_purchase_utc,
       to_char(m.last_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS last_purchase_utc,
       m.holds_ownable, p.app_accounts
FROM member m
LEFT JOIN posted p USING (original_transaction_id)
ORDER BY m.store_account_key, m.first_purchase_date, m.original_transaction_id
