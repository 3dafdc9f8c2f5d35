-- Store-account clustering, step 2: apply the components computed from cluster_edge (cluster_root: each node and
-- the smallest node of its component). $1 = the run id.

ANALYZE cluster_root;

CREATE TEMPORARY TABLE cluster_result ON COMMIT DROP AS
SELECT n.kind, n.name, 'sa-' || k.name AS key
FROM cluster_root c
JOIN cluster_node n ON n.node = c.node
JOIN cluster_node k ON k.node = c.root
WHERE n.kind IN ('o', 's', 't');
CREATE INDEX ON cluster_result (kind, name);
ANALYZE cluster_result;

-- Clusters that were joined to another, or got a smaller original transaction: renamed, and the rename recorded.
CREATE TEMPORARY TABLE cluster_remap ON COMMIT DROP AS
SELECT k.key AS old_key, r.key AS new_key
FROM cluster_old_key k
JOIN cluster_result r ON r.kind = 'o' AND r.name = substr(k.key, 4)
WHERE r.key <> k.key;

UPDATE store_account_member m SET store_account_key = x.new_key
FROM cluster_remap x
WHERE m.store_account_key = x.old_key;

-- Written as upserts of the renamed rows: on Citus these two are reference tables, which an UPDATE … FROM a
-- temporary table cannot change (docs/scale.md).
INSERT INTO store_account_recorded AS s (store_account, store_account_key)
SELECT s.store_account, x.new_key
FROM store_account_recorded s
JOIN cluster_remap x ON s.store_account_key = x.old_key
ON CONFLICT (store_account) DO UPDATE SET store_account_key = excluded.store_account_key;

INSERT INTO store_account_app_transaction AS t (app_transaction_id, store_account_key)
SELECT t.app_transaction_id, x.new_key
FROM store_account_app_transaction t
JOIN cluster_remap x ON t.store_account_key = x.old_key
ON CONFLICT (app_transaction_id) DO UPDATE SET store_account_key = excluded.store_account_key;

INSERT INTO store_account_merge (merged_key, into_key, run_id)
SELECT old_key, new_key, $1 FROM cluster_remap ORDER BY old_key;

-- Flags on a renamed store account stay, marked superseded: the next rule run names the new key.
UPDATE flag f SET status = 'superseded', updated_at = now()
FROM cluster_remap x
WHERE f.subject_kind = 'store-account' AND f.subject_key = x.old_key AND f.status <> 'superseded';

INSERT INTO store_account_member AS m (original_transaction_id, store_account_key, holds_ownable,
    first_purchase_date, last_purchase_date)
SELECT e.ot, r.key, bool_or(e.is_ownable), min(e.purchase_date), max(e.purchase_date)
FROM cluster_entry e
JOIN cluster_result r ON r.kind = 'o' AND r.name = e.ot
GROUP BY e.ot, r.key
ON CONFLICT (original_transaction_id) DO UPDATE
SET store_account_key = excluded.store_account_key,
    holds_ownable = m.holds_ownable OR excluded.holds_ownable,
    first_purchase_date = least(m.first_purchase_date, excluded.first_purchase_date),
    last_purchase_date = greatest(m.last_purchase_date, excluded.last_purchase_date);

INSERT INTO store_account_recorded (store_account, store_account_key)
SELECT name, key FROM cluster_result WHERE kind = 's'
ON CONFLICT (store_account) DO UPDATE SET store_account_key = excluded.store_account_key;

INSERT INTO store_account_app_transaction (app_transaction_id, store_account_key)
SELECT name, key FROM cluster_result WHERE kind = 't'
ON CONFLICT (app_transaction_id) DO UPDATE SET store_account_key = excluded.store_account_key;

-- A cluster merged into another this run is gone. The merged keys are read back from store_account_merge, not from
-- cluster_remap: on Citus store_account is a reference table, which a statement reading a temporary table cannot
-- change (docs/scale.md).
DELETE FROM store_account WHERE key IN (SELECT merged_key FROM store_account_merge WHERE run_id = $1);

-- The clusters written again: those this run's components name. (A merged key has no member left, and is gone.)
CREATE TEMPORARY TABLE cluster_affected ON COMMIT DROP AS
SELECT DISTINCT key FROM cluster_result;

-- Each count is grouped on its own and joined by key (Citus pushes no subquery in the select list down past an
-- aggregate).
INSERT INTO store_account (key, is_confirmed, original_transactions, recorded_store_accounts, holds_ownable,
    first_purchase_date, last_purchase_date, updated_run_id)
SELECT m.key,
       m.members >= 2 OR m.holds_ownable OR recorded.key IS NOT NULL
           -- appTransactionId names one App Store account: a cluster resting on one is that account.
           OR app.key IS NOT NULL,
       m.members,
       coalesce(recorded.accounts, 0),
       m.holds_ownable,
       m.first_purchase_date,
       m.last_purchase_date,
       $1
FROM (
    SELECT store_account_key AS key, count(*) AS members, bool_or(holds_ownable) AS holds_ownable,
        min(first_purchase_date) AS first_purchase_date, max(last_purchase_date) AS last_purchase_date
    FROM store_account_member
    WHERE store_account_key IN (SELECT key FROM cluster_affected)
    GROUP BY store_account_key
) m
LEFT JOIN (
    SELECT store_account_key AS key, count(*) AS accounts
    FROM store_account_recorded
    WHERE store_account_key IN (SELECT key FROM cluster_affected)
    GROUP BY store_account_key
) recorded ON recorded.key = m.key
LEFT JOIN (
    SELECT DISTINCT store_account_key AS key
    FROM store_account_app_transaction
    WHERE store_account_key IN (SELECT key FROM cluster_affected)
) app ON app.key = m.key
ON CONFLICT (key) DO UPDATE
SET is_confirmed = excluded.is_confirmed, original_transactions = excluded.original_transactions,
    recorded_store_accounts = excluded.recorded_store_accounts, holds_ownable = excluded.holds_ownable,
    first_purchase_date = excluded.first_purchase_date, last_purchase_date = excluded.last_purchase_date,
    updated_run_id = excluded.updated_run_id;

INSERT INTO store_account_file (file_id, run_id)
SELECT file_id, $1 FROM cluster_file;
