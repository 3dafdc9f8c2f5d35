-- Forgets the clusters so the next step rebuilds them from every receipt (the catalog changed, or asked for).
-- Merge history is kept: older flags stay traceable.
TRUNCATE store_account, store_account_member, store_account_recorded, store_account_file;
