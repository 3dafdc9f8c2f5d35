-- Erasure, step 2 (docs/privacy.md, "Erasure"): removes the keys of erase_key and the tokens of erase_token from
-- every table that holds them, in the erasing transaction, after erase_prepare.sql and the records' new texts
-- (erase_receipt.new_raw, NULL when unchanged) and the quarantine rows whose excerpt mentions them (erase_quarantine).
-- Sales stay: no purchase, file or report row is removed, so every reconciliation and month-end total is unchanged.
-- Each statement adds the rows it changed to erase_count; the last returns them.
-- Statements end with ';' at the end of a line.
-- The records: the envelope's account key, token and store-account id go; the stored text is the redacted one.
WITH changed AS (
    UPDATE receipt r
    SET account_key = CASE WHEN r.account_key IN (SELECT key FROM erase_key) THEN NULL ELSE r.account_key END,
        app_account_token = CASE WHEN r.app_account_token IN (SELECT token FROM erase_token) THEN NULL
                                 ELSE r.app_account_token END,
        store_account = CASE WHEN e.is_customers THEN NULL ELSE r.store_account END,
        raw = coalesce(e.new_raw, r.raw)
    FROM erase_receipt e
    WHERE r.id = e.id AND (e.is_customers OR e.new_raw IS NOT NULL)
    RETURNING r.id
)
INSERT INTO erase_count SELECT 'receipt', count(*) FROM changed;
-- A record's identity is a hash of its text and account key (sql/0007): made again from what is left, so it does
-- not keep the key either, and a later file bringing the record back is stored as a new record.
UPDATE receipt r
SET record_key = ('x' || left(encode(sha256(
        convert_to(r.raw, 'UTF8') || '\x00'::bytea || convert_to(coalesce(r.account_key, ''), 'UTF8')), 'hex'), 16)
    )::bit(64)::bigint
FROM erase_receipt e
WHERE r.id = e.id AND (e.is_customers OR e.new_raw IS NOT NULL);
WITH changed AS (
    UPDATE receipt_summary s
    SET account_key = r.account_key, store_account = r.store_account
    FROM receipt r
    WHERE r.id = s.id AND s.id IN (SELECT id FROM erase_receipt)
      AND (s.account_key, s.store_account) IS DISTINCT FROM (r.account_key, r.store_account)
    RETURNING s.id
)
INSERT INTO erase_count SELECT 'receipt_summary', count(*) FROM changed;
-- Which purchases the account made: derived from the records, which no longer say.
WITH gone AS (
    DELETE FROM account_purchase WHERE account_key IN (SELECT key FROM erase_key) RETURNING 1
)
INSERT INTO erase_count SELECT 'account_purchase', count(*) FROM gone;
-- The purchases stay, anonymous: only the token the app gave them goes.
WITH changed AS (
    UPDATE purchase SET app_account_token = NULL
    WHERE app_account_token IN (SELECT token FROM erase_token)
    RETURNING 1
)
INSERT INTO erase_count SELECT 'purchase', count(*) FROM changed;
-- A flag on the account keeps its rule, evidence, status and decisions (rule quality still counts it) under a
-- subject named after the flag's id. Deleted and inserted, not updated: on Citus subject_key places the row.
WITH gone AS (
    DELETE FROM flag
    WHERE subject_kind = 'app-account' AND subject_key IN (SELECT key FROM erase_key)
    RETURNING *
), moved AS (
    INSERT INTO flag
    SELECT (jsonb_populate_record(NULL::flag, to_jsonb(g) || jsonb_build_object('subject_key', 'erased-' || g.id))).*
    FROM gone g
    RETURNING 1
)
INSERT INTO erase_count SELECT 'flag', count(*) FROM moved
ON CONFLICT (name) DO UPDATE SET rows = erase_count.rows + excluded.rows;
-- Evidence naming the account or token in any flag (receipt-replay lists accounts), in any case, with or without the
-- dashes, becomes "erased".
WITH changed AS (
    UPDATE flag f
    SET evidence = regexp_replace(f.evidence::text, p.needles, 'erased', 'gi')::jsonb
    FROM erase_pattern p
    WHERE p.needles IS NOT NULL AND f.evidence::text ~* p.needles
    RETURNING 1
)
INSERT INTO erase_count SELECT 'flag', count(*) FROM changed
ON CONFLICT (name) DO UPDATE SET rows = erase_count.rows + excluded.rows;
-- A run's recorded settings and summary hold an account key where one was configured (a tester account of
-- sandbox-in-production): the same spellings become "erased".
WITH changed AS (
    UPDATE pipeline_run r
    SET settings = regexp_replace(r.settings::text, p.needles, 'erased', 'gi')::jsonb,
        summary = regexp_replace(r.summary::text, p.needles, 'erased', 'gi')::jsonb
    FROM erase_pattern p
    WHERE p.needles IS NOT NULL AND (r.settings::text ~* p.needles OR r.summary::text ~* p.needles)
    RETURNING 1
)
INSERT INTO erase_count SELECT 'pipeline_run', count(*) FROM changed;
WITH gone AS (
    DELETE FROM detect_pending
    WHERE subject_kind = 'app-account' AND subject_key IN (SELECT key FROM erase_key)
    RETURNING 1
)
INSERT INTO erase_count SELECT 'detect_pending', count(*) FROM gone;
-- A quarantined record stays (file, line, reason, message); only its excerpt, which names the customer, goes.
WITH changed AS (
    UPDATE quarantine SET excerpt = NULL
    WHERE id IN (SELECT id FROM erase_quarantine) AND excerpt IS NOT NULL
    RETURNING 1
)
INSERT INTO erase_count SELECT 'quarantine', count(*) FROM changed;
-- A store-account id only the erased records held is forgotten by the clustering too.
WITH erased_ids AS (
    SELECT DISTINCT store_account FROM erase_receipt WHERE is_customers AND store_account IS NOT NULL
), gone AS (
    DELETE FROM store_account_recorded
    WHERE store_account IN (SELECT store_account FROM erased_ids)
      AND store_account NOT IN (SELECT store_account FROM receipt
                                WHERE store_account IN (SELECT store_account FROM erased_ids))
    RETURNING 1
)
INSERT INTO erase_count SELECT 'store_account_recorded', count(*) FROM gone;
SELECT name, rows FROM erase_count WHERE rows > 0 ORDER BY name;
