-- title: Store accounts
-- description: App Store accounts reconstructed from receipts (clusters), the largest first: how many original
--   transactions and app accounts each one has, whether it is confirmed, and the keys merged into it.
-- param: min_app_accounts integer = 1 -- only clusters used by at least this many app accounts
-- param: confirmed_only boolean = false -- only confirmed clusters
-- param: window days = null -- only clusters with a purchase in the last N days, ending on the newest purchase of any cluster; null or 0: all (run passes output.window)
-- sensitive: false

SELECT c.store_account_key,
       c.is_confirmed,
       c.app_accounts,
       c.original_transactions,
       c.recorded_store_accounts,
       c.holds_ownable,
       to_char(c.first_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS first_purchase_utc,
       to_char(c.last_purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS last_purchase_utc,
       c.merged_keys::text AS merged_keys
-- The window first, in a subquery kept apart (OFFSET 0), so that each cluster's app accounts are counted once, not
-- once for the filter and again for the column.
FROM (
    SELECT *
    FROM store_account_clusters c
    WHERE (NOT $2 OR c.is_confirmed)
      AND (coalesce($3::integer, 0) <= 0 OR c.last_purchase_date > (
          SELECT max(s.last_purchase_date) FROM store_account s) - make_interval(days => $3::integer))
    OFFSET 0
) c
WHERE c.app_accounts >= $1
ORDER BY c.app_accounts DESC, c.original_transactions DESC, c.store_account_key
