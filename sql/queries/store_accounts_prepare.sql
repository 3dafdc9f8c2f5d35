-- Store-account clustering, step 1: the entries of receipt files not yet folded into the clusters, and the graph
-- nodes they touch. Runs in detect's clustering transaction; temporary tables drop at COMMIT. $1 = true when the
-- clusters are rebuilt from every receipt file.

CREATE TEMPORARY TABLE cluster_file ON COMMIT DROP AS
SELECT f.id AS file_id
FROM input_file f
WHERE f.kind = 'receipts' AND NOT EXISTS (SELECT 1 FROM store_account_file d WHERE d.file_id = f.id);
-- Counted, or the planner assumes thousands of files, estimates tens of millions of receipts below and spends 100 ms
-- JIT-compiling a join that reads one file's.
ANALYZE cluster_file;

-- Their valid production receipts. A receipt's id is its file's id * 2^32 + its record number: a file's receipts are
-- one range of the primary key. Counted (analyzed) before the join below, so that a day's few receipts are joined by
-- key and a rebuild's many by hashing. A rebuild reads every file's, so it reads receipt in one pass instead of a range
-- per file (0.2 s against 3.2 s at 1M entries), still only cluster_file's: a file committed since is the next run's.
CREATE TEMPORARY TABLE cluster_receipt ON COMMIT DROP AS
SELECT r.id, r.style, r.store_account
FROM cluster_file cf
JOIN receipt r ON r.id >= cf.file_id * 4294967296 AND r.id < (cf.file_id + 1) * 4294967296
WHERE r.status = 0 AND NOT r.is_sandbox AND NOT $1::boolean
UNION ALL
SELECT r.id, r.style, r.store_account
FROM receipt r
WHERE r.status = 0 AND NOT r.is_sandbox AND $1::boolean AND r.file_id IN (SELECT file_id FROM cluster_file);
ANALYZE cluster_receipt;

-- A rebuild joins every receipt's transactions: hashing beats the index probes the planner picks from its join
-- estimate, which the repeated receipt-id condition below divides by hundreds (1.9 s instead of 5.1 at 1M entries).
SELECT set_config('enable_nestloop', (NOT $1::boolean)::text, true);

-- Their production transaction entries, read apart from the transactions: on Citus (docs/scale.md) receipt_purchase
-- is split by receipt id and purchase by transaction id, and one statement cannot join a temporary table to both.
CREATE TEMPORARY TABLE cluster_link ON COMMIT DROP AS
SELECT r.id AS receipt_id, r.style, r.store_account, rp.environment, rp.transaction_id
FROM cluster_receipt r
-- The second condition says the same (a receipt id's high half is its file) and makes a hash join of receipt ids
-- fast: PostgreSQL hashes a bigint as the XOR of its halves, so file id * 2^32 + record number of a few hundred files
-- falls on a few thousand hash values (a rebuild's join took 10 s instead of 0.5). docs/decisions.md, "Storage".
JOIN receipt_purchase rp ON rp.receipt_id = r.id AND rp.receipt_id >> 32 = r.id >> 32
WHERE rp.environment = 'Production';
ANALYZE cluster_link;

-- Those of catalog apps; family-shared entries never link accounts. Never device ids, download ids, our own account
-- or addresses. A verified StoreKit 2 transaction brings its appTransactionId (only verified ones reach purchase),
-- which names one App Store account per app.
CREATE TEMPORARY TABLE cluster_entry ON COMMIT DROP AS
SELECT l.receipt_id,
       l.style,
       l.store_account,
       p.app_transaction_id,
       coalesce(p.original_transaction_id, p.transaction_id) AS ot,
       p.purchase_date,
       coalesce(pr.type IN ('non-consumable', 'auto-renewable', 'non-renewing', 'free-subscription'), false)
           AS is_ownable
FROM cluster_link l
JOIN purchase p ON p.environment = l.environment AND p.transaction_id = l.transaction_id
JOIN app a ON a.bundle_id = p.bundle_id
LEFT JOIN product pr ON pr.bundle_id = p.bundle_id AND pr.product_id = p.product_id
WHERE p.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED';
SET LOCAL enable_nestloop TO DEFAULT;

-- Temporary tables are never analyzed automatically; without statistics the planner guesses badly at scale.
ANALYZE cluster_entry;

-- Clusters the new entries reach: their original transactions', recorded store accounts' and appTransactionIds'
-- current clusters.
CREATE TEMPORARY TABLE cluster_old_key ON COMMIT DROP AS
SELECT m.store_account_key AS key
FROM store_account_member m
WHERE m.original_transaction_id IN (SELECT ot FROM cluster_entry)
UNION
SELECT s.store_account_key
FROM store_account_recorded s
WHERE s.store_account IN (SELECT store_account FROM cluster_entry WHERE store_account IS NOT NULL)
UNION
SELECT t.store_account_key
FROM store_account_app_transaction t
WHERE t.app_transaction_id IN (SELECT app_transaction_id FROM cluster_entry WHERE app_transaction_id IS NOT NULL);

-- Graph nodes, numbered so that original transactions come first in (length, text) order: then the smallest node
-- of a cluster is its smallest original transaction id, which names it ('o' sorts before 'r', 's' and 't', the
-- appTransactionIds). A key "sa-X" is node X itself.
CREATE TEMPORARY TABLE cluster_node ON COMMIT DROP AS
SELECT (row_number() OVER (ORDER BY kind, length(name), name COLLATE "C") - 1)::bigint AS node, kind, name
FROM (
    SELECT 'o' AS kind, ot AS name FROM cluster_entry
    UNION
    SELECT 'o', substr(key, 4) FROM cluster_old_key
    UNION
    SELECT 'r', receipt_id::text FROM cluster_entry WHERE style = 'ios7'
    UNION
    SELECT 's', store_account FROM cluster_entry WHERE store_account IS NOT NULL
    UNION
    SELECT 't', app_transaction_id FROM cluster_entry WHERE app_transaction_id IS NOT NULL
) names;
CREATE UNIQUE INDEX ON cluster_node (kind, name);
ANALYZE cluster_node;

-- The edges: one app receipt's transactions, one recorded store account's transactions, one appTransactionId's
-- transactions, and each node already in a cluster to that cluster's key.
CREATE TEMPORARY TABLE cluster_edge ON COMMIT DROP AS
SELECT DISTINCT a.node AS a, b.node AS b
FROM cluster_entry e
JOIN cluster_node a ON a.kind = 'r' AND a.name = e.receipt_id::text
JOIN cluster_node b ON b.kind = 'o' AND b.name = e.ot
WHERE e.style = 'ios7'
UNION
SELECT a.node, b.node
FROM cluster_entry e
JOIN cluster_node a ON a.kind = 's' AND a.name = e.store_account
JOIN cluster_node b ON b.kind = 'o' AND b.name = e.ot
UNION
SELECT a.node, b.node
FROM cluster_entry e
JOIN cluster_node a ON a.kind = 't' AND a.name = e.app_transaction_id
JOIN cluster_node b ON b.kind = 'o' AND b.name = e.ot
UNION
SELECT a.node, b.node
FROM store_account_member m
JOIN cluster_node a ON a.kind = 'o' AND a.name = m.original_transaction_id
JOIN cluster_node b ON b.kind = 'o' AND b.name = substr(m.store_account_key, 4)
UNION
SELECT a.node, b.node
FROM store_account_recorded s
JOIN cluster_node a ON a.kind = 's' AND a.name = s.store_account
JOIN cluster_node b ON b.kind = 'o' AND b.name = substr(s.store_account_key, 4)
UNION
SELECT a.node, b.node
FROM store_account_app_transaction t
JOIN cluster_node a ON a.kind = 't' AND a.name = t.app_transaction_id
JOIN cluster_node b ON b.kind = 'o' AND b.name = substr(t.store_account_key, 4);

CREATE TEMPORARY TABLE cluster_root (
    node  bigint PRIMARY KEY,
    root  bigint NOT NULL
) ON COMMIT DROP;
