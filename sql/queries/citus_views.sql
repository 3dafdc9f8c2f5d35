-- The analysts' views that have a second form for a Citus coordinator, put in place there once every table is
-- (CitusDistribution.swift; docs/scale.md, "Citus"). Same columns, same rows. On plain PostgreSQL the migrations'
-- forms stay: there they read one cluster's members by index, where this form counts every member's app accounts.
-- A form here ends its comment with "(Citus form)": a migration that re-creates one of these views must comment it
-- anew, without that mark, so that the next command on Citus gives it its Citus form again.
-- Statements end with ';' at the end of a line; they run in one transaction.
--
-- store_account_members: each original transaction's app accounts counted once per transaction and joined, not
-- looked up per member (Citus runs no subquery per row into a table split by another column).
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
