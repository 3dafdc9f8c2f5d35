-- What store_accounts_prepare.sql left to cluster: receipt files, entries and nodes (original transactions).
SELECT (SELECT count(*) FROM cluster_file) AS files,
       (SELECT count(*) FROM cluster_entry) AS entries,
       (SELECT count(*) FROM cluster_node) AS nodes
