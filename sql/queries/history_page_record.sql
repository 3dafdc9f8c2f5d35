-- Records a history page: the revision to resume from, the pages and transactions so far. $1: the history
-- (transactions or refunds); $2: the environment; $3: the transaction id; $4: the app's bundle id; $5: the
-- revision (null: keep the one recorded); $6: the page's transactions; $7: the run.
INSERT INTO apple_history_revision
    (kind, environment, transaction_id, bundle_id, revision, pages, transactions, updated_at, run_id)
VALUES ($1, $2, $3, $4, $5, 1, $6, now(), $7)
ON CONFLICT (kind, environment, transaction_id) DO UPDATE
SET bundle_id = excluded.bundle_id, revision = coalesce(excluded.revision, apple_history_revision.revision),
    pages = apple_history_revision.pages + 1,
    transactions = apple_history_revision.transactions + excluded.transactions,
    updated_at = now(), run_id = excluded.run_id
