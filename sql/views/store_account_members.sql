-- readers: iap_audit_analyst
-- On plain PostgreSQL one cluster's members are read by index; store_account_members.citus.sql is the form a Citus
-- coordinator runs (same columns, same rows).
CREATE OR REPLACE VIEW store_account_members AS
SELECT m.store_account_key, m.original_transaction_id, m.holds_ownable, m.first_purchase_date,
       m.last_purchase_date,
       (SELECT coalesce(jsonb_agg(DISTINCT ap.account_key), '[]') FROM account_purchase ap
        WHERE ap.original_transaction_id = m.original_transaction_id) AS app_accounts,
       (SELECT coalesce(jsonb_agg(rs.store_account ORDER BY rs.store_account), '[]') FROM store_account_recorded rs
        WHERE rs.store_account_key = m.store_account_key) AS recorded_store_accounts
FROM store_account_member m;
COMMENT ON VIEW store_account_members IS 'Each original transaction and the store account it belongs to.';
