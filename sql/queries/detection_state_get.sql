-- The value detect recorded under a name in detection_state ($1): 'rules' (what the last run's flags depend on),
-- 'store_account_catalog' (the catalog the store-account clusters were built with). No row: nothing recorded.
SELECT value FROM detection_state WHERE name = $1
