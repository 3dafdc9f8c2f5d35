-- readers: iap_audit_analyst
-- Each cluster's app accounts and merged keys are counted once per key and joined, not looked up per cluster (a form
-- Citus can run, issue 14). PostgreSQL still reads one cluster's rows by index when a query names it; the whole view
-- (the store-accounts report) is one pass over account_purchase instead of a probe per cluster.
CREATE OR REPLACE VIEW store_account_clusters AS
SELECT s.key AS store_account_key, s.is_confirmed, s.original_transactions, s.recorded_store_accounts,
       s.holds_ownable, s.first_purchase_date, s.last_purchase_date,
       coalesce(a.app_accounts, 0) AS app_accounts,
       coalesce(m.merged_keys, '[]') AS merged_keys
FROM store_account s
LEFT JOIN (
    SELECT store_account_key, count(DISTINCT account_key) AS app_accounts
    FROM account_purchase
    GROUP BY store_account_key
) a ON a.store_account_key = s.key
LEFT JOIN (
    SELECT into_key, jsonb_agg(merged_key ORDER BY merged_key) AS merged_keys
    FROM store_account_merge
    GROUP BY into_key
) m ON m.into_key = s.key;
COMMENT ON VIEW store_account_clusters IS 'Reconstructed store accounts (clusters) with their size and confirmation.';
