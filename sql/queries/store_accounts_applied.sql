-- What store_accounts_apply.sql changed: clusters renamed (merged into another), and clusters written by run $1.
SELECT (SELECT count(*) FROM cluster_remap) AS renamed,
       (SELECT count(*) FROM store_account WHERE updated_run_id = $1) AS clusters_written
