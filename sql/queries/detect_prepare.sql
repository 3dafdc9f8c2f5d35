-- Detect, after store-account clustering: fold the receipts of files detect has not seen into receipt_summary,
-- recompute the account_purchase rows of every purchase that changed, and queue in detect_pending the subjects whose
-- data changed, for the rules. $1 = the run id, $2 = true to rebuild both tables from every receipt (the rules then
-- evaluate every subject, so nothing is queued); a statement that names either takes both. One transaction; temporary
-- tables drop at COMMIT.

CREATE TEMPORARY TABLE detect_setting ON COMMIT DROP AS
SELECT $1::bigint AS run_id, $2::boolean AS rebuild;

-- DELETE rather than TRUNCATE: TRUNCATE's ACCESS EXCLUSIVE lock would wait for, then block, every analyst session
-- that reads these tables.
DELETE FROM receipt_summary WHERE (SELECT rebuild FROM detect_setting);
DELETE FROM account_purchase WHERE (SELECT rebuild FROM detect_setting);
DELETE FROM detect_file WHERE (SELECT rebuild FROM detect_setting);

CREATE TEMPORARY TABLE detect_new_file ON COMMIT DROP AS
SELECT f.id AS file_id
FROM input_file f
WHERE f.kind = 'receipts' AND NOT EXISTS (SELECT 1 FROM detect_file d WHERE d.file_id = f.id);

-- A receipt's id is its file's id * 2^32 + its record number: a file's receipts are one range of the primary key.
INSERT INTO receipt_summary
SELECT r.id, r.file_id, r.line, r.style, r.recorded_at, r.account_key, r.store_account, r.receipt_data_sha256,
       r.status, r.environment, r.is_sandbox, r.receipt_type, r.bundle_id, r.app_item_id, r.adam_id,
       r.request_date, r.transaction_entries
FROM detect_new_file n
JOIN receipt r ON r.id >= n.file_id * 4294967296 AND r.id < (n.file_id + 1) * 4294967296;

-- The new receipts again, for the statements below that queue what they changed. A rebuild queues nothing, and
-- copying every receipt aside cost it 0.8 s at 1M entries.
CREATE TEMPORARY TABLE detect_new_receipt ON COMMIT DROP AS
SELECT s.*
FROM detect_new_file n
JOIN receipt_summary s ON s.id >= n.file_id * 4294967296 AND s.id < (n.file_id + 1) * 4294967296
WHERE NOT (SELECT rebuild FROM detect_setting);
ANALYZE detect_new_receipt;
-- A rebuild's account_purchase is planned from receipt_summary's statistics: take them now that it is whole.
DO $$ BEGIN IF (SELECT rebuild FROM detect_setting) THEN ANALYZE receipt_summary; END IF; END $$;

-- Purchases whose id is an app id a new receipt names: forged-fields flags a receipt that lists one, so the receipts
-- listing them are evaluated again, as are those listing a purchase a new copy gave a fact (an expiry decades ahead).
-- The transaction key's index leads with the environment: naming both of its values makes two probes of it, where
-- the transaction id alone read the whole index (35 ms per app id at 4M entries).
CREATE TEMPORARY TABLE detect_app_id_purchase ON COMMIT DROP AS
WITH a AS (
    SELECT app_item_id AS id FROM detect_new_receipt WHERE app_item_id IS NOT NULL
    UNION
    SELECT adam_id FROM detect_new_receipt WHERE adam_id IS NOT NULL
)
SELECT p.id, p.environment, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id) AS ot
FROM a JOIN purchase p ON p.original_transaction_id = a.id
WHERE NOT (SELECT rebuild FROM detect_setting)
UNION
SELECT p.id, p.environment, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id)
FROM a JOIN purchase p ON p.environment IN ('Production', 'Sandbox') AND p.transaction_id = a.id
WHERE NOT (SELECT rebuild FROM detect_setting);

-- The clusters this run's clustering wrote (new, grown, merged or renamed). The run id is a parameter here, not read
-- from detect_setting: the planner then knows it is a new value, found by index, where for "the value of a subquery"
-- it assumed every cluster and read them all.
CREATE TEMPORARY TABLE detect_changed_cluster ON COMMIT DROP AS
SELECT key FROM store_account
WHERE updated_run_id = $1::bigint AND NOT $2::boolean;
ANALYZE detect_changed_cluster;

-- Of those, the ones whose members changed key (merged into another, or renamed for a smaller original transaction):
-- account_purchase names the key, so their purchases' rows are recomputed. Most clusters a day touches only grew, by
-- the renewals of the new receipts, whose purchases are recomputed anyway.
CREATE TEMPORARY TABLE detect_renamed_cluster ON COMMIT DROP AS
SELECT DISTINCT into_key AS key FROM store_account_merge
WHERE run_id = $1::bigint AND NOT $2::boolean;
ANALYZE detect_renamed_cluster;

-- Purchases whose account_purchase rows, or whose rules' answers, may have changed: every one in a rebuild; else
-- those the new receipts list (new, or given new facts by a later copy), those of the renamed clusters above, and
-- those whose id is a new app id. One statement each: a small table each, so each is planned as lookups.
--
-- `recount`: the purchase's rows are computed again from every receipt that listed it — in a rebuild, when a new copy
-- gave it a fact (a refund, an upgrade) and when its cluster took a new key. The others' rows only change by this
-- run's copies (a renewal listed again by the day's receipts), which are added to them: their older copies, a dozen
-- per subscription renewal, are not read again.
CREATE TEMPORARY TABLE detect_changed_purchase (
    id              bigint PRIMARY KEY,
    environment     text NOT NULL,
    transaction_id  text NOT NULL,
    ot              text NOT NULL,
    recount         boolean NOT NULL
) ON COMMIT DROP;

INSERT INTO detect_changed_purchase
SELECT p.id, p.environment, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id), true
FROM purchase p
WHERE (SELECT rebuild FROM detect_setting);

-- The new receipts' transactions are read apart from the transactions themselves: on Citus (docs/scale.md)
-- receipt_purchase is split by receipt id and purchase by transaction id, and one statement cannot join a temporary
-- table to both.
CREATE TEMPORARY TABLE detect_new_listing ON COMMIT DROP AS
SELECT DISTINCT rp.environment, rp.transaction_id
FROM detect_new_receipt r
JOIN receipt_purchase rp ON rp.receipt_id = r.id
WHERE NOT (SELECT rebuild FROM detect_setting);
ANALYZE detect_new_listing;

INSERT INTO detect_changed_purchase
SELECT p.id, p.environment, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id),
       p.changed_receipt_id IS NOT NULL AND p.changed_receipt_id >> 32 IN (SELECT file_id FROM detect_new_file)
FROM detect_new_listing l
JOIN purchase p ON p.environment = l.environment AND p.transaction_id = l.transaction_id
ON CONFLICT DO NOTHING;

-- The members apart from their purchases, as above: store_account_member is split by original transaction id.
CREATE TEMPORARY TABLE detect_renamed_member ON COMMIT DROP AS
SELECT m.original_transaction_id AS ot
FROM detect_renamed_cluster s
JOIN store_account_member m ON m.store_account_key = s.key;
ANALYZE detect_renamed_member;

INSERT INTO detect_changed_purchase
SELECT DISTINCT p.id, p.environment, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id), true
FROM detect_renamed_member m
JOIN purchase p ON p.original_transaction_id = m.ot OR (p.environment = 'Production' AND p.transaction_id = m.ot)
ON CONFLICT (id) DO UPDATE SET recount = true;

-- Their rows do not change (no receipt of theirs is new); the rules that read app ids evaluate them again.
INSERT INTO detect_changed_purchase
SELECT *, false FROM detect_app_id_purchase
ON CONFLICT DO NOTHING;
ANALYZE detect_changed_purchase;

-- The subjects, in the flags' kinds, whose data changed.
CREATE TEMPORARY TABLE detect_changed_subject (
    subject_kind  text NOT NULL,
    subject_key   text NOT NULL
) ON COMMIT DROP;

-- A rebuild queues nothing: its rules evaluate every subject.
INSERT INTO detect_changed_subject
SELECT * FROM (
    SELECT 'receipt', id::text FROM detect_new_receipt
    UNION ALL
    SELECT 'receipt-data', encode(receipt_data_sha256, 'hex') FROM detect_new_receipt
    WHERE receipt_data_sha256 IS NOT NULL
    UNION ALL
    SELECT 'app-account', account_key FROM detect_new_receipt WHERE account_key IS NOT NULL
    UNION ALL
    SELECT 'transaction', transaction_id FROM detect_changed_purchase
    UNION ALL
    SELECT 'transaction', ot FROM detect_changed_purchase
    UNION ALL
    SELECT 'receipt', rp.receipt_id::text
    FROM (SELECT environment, transaction_id FROM detect_app_id_purchase
          UNION
          SELECT c.environment, c.transaction_id
          FROM detect_changed_purchase c JOIN purchase p ON p.id = c.id
          WHERE p.changed_receipt_id IN (SELECT id FROM detect_new_receipt)) c
    JOIN receipt_purchase rp ON rp.environment = c.environment AND rp.transaction_id = c.transaction_id
    UNION ALL
    SELECT 'store-account', key FROM detect_changed_cluster
) changed (subject_kind, subject_key)
WHERE NOT (SELECT rebuild FROM detect_setting);

-- The changed purchases' rows as they were (a row can disappear: an upgraded period) and, below, as they are now.
CREATE TEMPORARY TABLE detect_changed_row (
    account_key        text NOT NULL,
    store_account_key  text
) ON COMMIT DROP;

WITH gone AS (
    DELETE FROM account_purchase ap USING detect_changed_purchase c WHERE ap.purchase_id = c.id AND c.recount
    RETURNING ap.account_key, ap.store_account_key
)
INSERT INTO detect_changed_row SELECT * FROM gone;

-- A rebuild joins every purchase: hashing beats the index probes the planner picks from its join estimate, which the
-- repeated receipt-id condition below divides by the number of files.
DO $$ BEGIN IF (SELECT rebuild FROM detect_setting) THEN SET LOCAL enable_nestloop = off; END IF; END $$;

-- The copies counted: every copy of a recounted purchase, this run's copies of the others; counted per purchase and
-- account with the receipts' facts. receipt_purchase and receipt_summary are both split by receipt id on Citus, so
-- this join stays on each worker; purchase and store_account_member are read below, from what it found.
CREATE TEMPORARY TABLE detect_posting ON COMMIT DROP AS
WITH copy AS (
    SELECT c.id AS purchase_id, c.environment, c.transaction_id, rp.receipt_id
    FROM detect_changed_purchase c
    JOIN receipt_purchase rp ON rp.environment = c.environment AND rp.transaction_id = c.transaction_id
    WHERE c.recount
    UNION ALL
    SELECT c.id, c.environment, c.transaction_id, rp.receipt_id
    FROM detect_new_receipt r
    JOIN receipt_purchase rp ON rp.receipt_id = r.id
    JOIN detect_changed_purchase c ON c.environment = rp.environment AND c.transaction_id = rp.transaction_id
    WHERE NOT c.recount
)
SELECT x.purchase_id, x.environment, x.transaction_id, r.account_key,
       min(coalesce(r.recorded_at, r.request_date)) AS first_posted_at,
       -- A copy whose receipt has neither date posted at the purchase date (read with the purchase, below).
       bool_or(r.recorded_at IS NULL AND r.request_date IS NULL) AS has_undated_copy,
       min(r.id) AS first_receipt_id,
       count(*) AS receipts
FROM copy x
-- file_id repeats the id's high half, so that a hash join of receipt ids spreads (store_accounts_prepare.sql).
JOIN receipt_summary r ON r.id = x.receipt_id AND r.file_id = x.receipt_id >> 32
WHERE r.status = 0 AND NOT r.is_sandbox AND r.account_key IS NOT NULL AND x.environment = 'Production'
GROUP BY x.purchase_id, x.environment, x.transaction_id, r.account_key;
ANALYZE detect_posting;

-- Their purchases, with the product's type.
CREATE TEMPORARY TABLE detect_posted_purchase ON COMMIT DROP AS
SELECT p.id, p.transaction_id, coalesce(p.original_transaction_id, p.transaction_id) AS ot, p.product_id,
       p.bundle_id, pr.type AS product_type, p.quantity, p.purchase_date, p.cancellation_date, p.cancellation_reason,
       coalesce(p.is_trial_period, false) OR coalesce(p.is_in_intro_offer_period, false) AS is_intro_offer,
       coalesce(p.subscription_group_identifier, p.bundle_id) AS subscription_group,
       -- A restore re-issues a non-consumable under a new transaction id: not a payment. Renewals are.
       p.original_transaction_id IS NULL OR p.original_transaction_id = p.transaction_id
           OR pr.type = 'auto-renewable' AS is_payment
FROM (SELECT DISTINCT environment, transaction_id FROM detect_posting) x
JOIN purchase p ON p.environment = x.environment AND p.transaction_id = x.transaction_id
LEFT JOIN product pr ON pr.bundle_id = p.bundle_id AND pr.product_id = p.product_id
WHERE p.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED' AND p.is_upgraded IS NOT TRUE;
ANALYZE detect_posted_purchase;

WITH added AS (
    INSERT INTO account_purchase AS ap (account_key, purchase_id, transaction_id, original_transaction_id, product_id,
        bundle_id, product_type, quantity, purchase_date, cancellation_date, cancellation_reason, is_intro_offer,
        subscription_group, is_payment, store_account_key, first_posted_at, first_receipt_id, receipts)
    SELECT x.account_key, p.id, p.transaction_id, p.ot, p.product_id, p.bundle_id, p.product_type, p.quantity,
           p.purchase_date, p.cancellation_date, p.cancellation_reason, p.is_intro_offer, p.subscription_group,
           p.is_payment, m.store_account_key,
           least(x.first_posted_at, CASE WHEN x.has_undated_copy THEN p.purchase_date END),
           x.first_receipt_id, x.receipts
    FROM detect_posting x
    JOIN detect_posted_purchase p ON p.id = x.purchase_id
    LEFT JOIN store_account_member m ON m.original_transaction_id = p.ot
    -- Only a purchase that is not recounted keeps its rows: this run's copies add to them.
    ON CONFLICT (account_key, purchase_id) DO UPDATE
    SET receipts = ap.receipts + excluded.receipts,
        first_posted_at = least(ap.first_posted_at, excluded.first_posted_at),
        first_receipt_id = least(ap.first_receipt_id, excluded.first_receipt_id)
    RETURNING account_key, store_account_key
)
-- A rebuild queues nothing (its rows were all deleted at the start, so none came back from the DELETE above).
INSERT INTO detect_changed_row SELECT * FROM added WHERE NOT (SELECT rebuild FROM detect_setting);
SET LOCAL enable_nestloop TO DEFAULT;

-- Their accounts and store accounts, and the accounts of every cluster that changed: one that grew can become
-- confirmed, which the account rules read.
INSERT INTO detect_changed_subject
SELECT 'app-account', account_key FROM detect_changed_row
UNION ALL
SELECT 'store-account', store_account_key FROM detect_changed_row WHERE store_account_key IS NOT NULL
UNION ALL
SELECT 'app-account', ap.account_key
FROM detect_changed_cluster c
JOIN account_purchase ap ON ap.store_account_key = c.key;

INSERT INTO detect_pending (subject_kind, subject_key)
SELECT DISTINCT subject_kind, subject_key FROM detect_changed_subject
ON CONFLICT DO NOTHING;

INSERT INTO detect_file (file_id, run_id)
SELECT n.file_id, s.run_id FROM detect_new_file n CROSS JOIN detect_setting s;
