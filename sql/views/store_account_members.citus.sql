-- readers: iap_audit_analyst
-- The form of store_account_members.sql a Citus coordinator runs (docs/scale.md, "Citus"): each original
-- transaction's app accounts counted once per transaction and joined, not looked up per member (Citus runs no
-- subquery per row into a table split by another column). Same columns, same rows.
CREATE OR REPLACE VIEW store_account_members AS
SELECT m.store_account_key, m.original_transaction_id, m.holds_ownable, m.first_purchase_date,
       m.last_purchase_date,
       coalesce(a.app_accounts, '[]') AS app_accounts,
       coalesce(r.store_accounts, '[]') AS recorded_store_accounts
FROM store_account_member m
LEFT JOIN (
    SELECT original_transaction_id, jsonb_agg(DISTINCT account_key) AS app_accounts
    FROM account_purchase
    GROUP BY original_transaction_id
) a ON a.original_transaction_id = m.original_transaction_id
LEFT JOIN (
    SELECT store_account_key, jsonb_agg(store_account ORDER BY store_account) AS store_accounts
    FROM store_account_recorded
    GROUP BY store_account_key
) r ON r.store_account_key = m.store_account_key;
COMMENT ON VIEW store_account_members IS 'Each original transaction and the store account it belongs to. '
    '(Citus form)';
