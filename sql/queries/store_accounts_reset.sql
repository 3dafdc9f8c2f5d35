-- Forgets the clusters so the next step rebuilds them from every receipt (the catalog changed, or asked for).
-- Merge history is kept: older flags stay traceable. DELETE rather than TRUNCATE: TRUNCATE's ACCESS EXCLUSIVE lock
-- would wait for (and then block) every analyst reading the cluster views; a rebuild is rare, so its cost is fine.
DELETE FROM store_account_member;
DELETE FROM store_account_recorded;
DELETE FROM store_account_app_transaction;
DELETE FROM store_account_file;
DELETE FROM store_account;
