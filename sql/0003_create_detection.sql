-- Fraud detection (FRAUD.md): store-account clusters, the purchases the rules read, flags, analyst views and role.
-- Forward only: never edit this file once released; add a new numbered migration instead.

-- Store accounts ------------------------------------------------------------------------------------------------
-- Union-find over production, status-0 transactions of catalog apps (family-shared entries left out). The unit is
-- the original transaction: every transaction of one original transaction belongs to one App Store account.

CREATE TABLE store_account (
    key                      text PRIMARY KEY,
    is_confirmed             boolean NOT NULL,
    original_transactions    integer NOT NULL,
    recorded_store_accounts  integer NOT NULL,
    holds_ownable            boolean NOT NULL,
    first_purchase_date      timestamptz,
    last_purchase_date       timestamptz,
    updated_run_id           bigint
);
COMMENT ON TABLE store_account IS 'One reconstructed App Store account (a cluster): its key is "sa-" and the '
    'smallest original transaction id in it. Confirmed when it rests on an app-receipt or recorded-store-account '
    'link, or holds a non-consumable or subscription purchase.';

CREATE TABLE store_account_member (
    original_transaction_id  text PRIMARY KEY,
    store_account_key        text NOT NULL,
    holds_ownable            boolean NOT NULL,
    first_purchase_date      timestamptz,
    last_purchase_date       timestamptz
);
CREATE INDEX store_account_member_key_idx ON store_account_member (store_account_key);
COMMENT ON TABLE store_account_member IS 'Which store account each production original transaction belongs to.';

CREATE TABLE store_account_recorded (
    store_account      text PRIMARY KEY,
    store_account_key  text NOT NULL
);
CREATE INDEX store_account_recorded_key_idx ON store_account_recorded (store_account_key);
COMMENT ON TABLE store_account_recorded IS 'Store-account ids our recorder stored in envelopes, and the cluster each '
    'one joined.';

CREATE TABLE store_account_merge (
    id          bigserial PRIMARY KEY,
    merged_key  text NOT NULL,
    into_key    text NOT NULL,
    run_id      bigint,
    merged_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX store_account_merge_merged_idx ON store_account_merge (merged_key);
COMMENT ON TABLE store_account_merge IS 'A cluster that new receipts joined to another: older flags naming '
    'merged_key stay traceable to into_key.';

-- Input files whose receipts were already folded into the clusters: new files extend them incrementally.
CREATE TABLE store_account_file (
    file_id  bigint PRIMARY KEY,
    run_id   bigint
);

-- Facts the incremental clustering depends on (the catalog's fingerprint): when they change, it starts over.
CREATE TABLE detection_state (
    name   text PRIMARY KEY,
    value  text NOT NULL
);

-- Receipts as the rules see them: every column but the raw record, a tenth of the table's size. Refreshed by every
-- detect run, so each rule's scan of all receipts reads this instead of the whole receipt heap.
CREATE MATERIALIZED VIEW receipt_summary AS
SELECT r.id, r.file_id, r.line, r.style, r.recorded_at, r.account_key, r.store_account, r.receipt_data_sha256,
       r.status, r.environment, r.is_sandbox, r.receipt_type, r.bundle_id, r.app_item_id, r.adam_id,
       r.request_date, r.transaction_entries
FROM receipt r;
CREATE UNIQUE INDEX receipt_summary_id_idx ON receipt_summary (id);
CREATE INDEX receipt_summary_sha256_idx ON receipt_summary (receipt_data_sha256)
    WHERE receipt_data_sha256 IS NOT NULL;
COMMENT ON MATERIALIZED VIEW receipt_summary IS 'Each receipt without its raw record; refreshed by detect.';

-- Purchases as the rules see them -------------------------------------------------------------------------------
-- Each (app account, production transaction) once, from status-0 production receipts that carried an account.
-- Family-shared entries and upgraded periods are left out: they are never purchases, refunds or store accounts.
-- Refreshed by every detect run after the clusters are updated.
CREATE MATERIALIZED VIEW account_purchase AS
SELECT r.account_key,
       p.id AS purchase_id,
       p.transaction_id,
       coalesce(p.original_transaction_id, p.transaction_id) AS original_transaction_id,
       p.product_id,
       p.bundle_id,
       pr.type AS product_type,
       p.quantity,
       p.purchase_date,
       p.cancellation_date,
       p.cancellation_reason,
       coalesce(p.is_trial_period, false) OR coalesce(p.is_in_intro_offer_period, false) AS is_intro_offer,
       coalesce(p.subscription_group_identifier, p.bundle_id) AS subscription_group,
       -- A restore re-issues a non-consumable under a new transaction id: not a payment. Renewals are.
       (p.original_transaction_id IS NULL OR p.original_transaction_id = p.transaction_id
           OR pr.type = 'auto-renewable') AS is_payment,
       m.store_account_key,
       min(coalesce(r.recorded_at, r.request_date, p.purchase_date)) AS first_posted_at,
       min(r.id) AS first_receipt_id,
       count(*) AS receipts
FROM receipt_summary r
JOIN receipt_purchase rp ON rp.receipt_id = r.id
JOIN purchase p ON p.environment = rp.environment AND p.transaction_id = rp.transaction_id
LEFT JOIN product pr ON pr.bundle_id = p.bundle_id AND pr.product_id = p.product_id
LEFT JOIN store_account_member m ON m.original_transaction_id = coalesce(p.original_transaction_id, p.transaction_id)
WHERE r.status = 0 AND NOT r.is_sandbox AND r.account_key IS NOT NULL
  AND p.environment = 'Production'
  AND p.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED'
  AND p.is_upgraded IS NOT TRUE
GROUP BY r.account_key, p.id, pr.type, m.store_account_key;
CREATE UNIQUE INDEX account_purchase_key_idx ON account_purchase (account_key, purchase_id);
CREATE INDEX account_purchase_store_account_idx ON account_purchase (store_account_key);
CREATE INDEX account_purchase_transaction_idx ON account_purchase (transaction_id);
COMMENT ON MATERIALIZED VIEW account_purchase IS 'Each production purchase once per app account that posted it, '
    'with its store account; family-shared entries and upgraded periods left out. Refreshed by detect.';

-- Flags ---------------------------------------------------------------------------------------------------------

CREATE TABLE flag (
    id             bigserial PRIMARY KEY,
    rule           text NOT NULL,
    rule_version   integer NOT NULL,
    severity       text NOT NULL CHECK (severity IN ('info', 'warning', 'high')),
    subject_kind   text NOT NULL
                   CHECK (subject_kind IN ('app-account', 'store-account', 'transaction', 'receipt', 'receipt-data')),
    subject_key    text NOT NULL,
    window_start   timestamptz,
    window_end     timestamptz,
    score          numeric NOT NULL,
    evidence       jsonb NOT NULL,
    status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'dismissed', 'superseded')),
    first_run_id   bigint,
    last_run_id    bigint,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (rule, subject_kind, subject_key)
);
CREATE INDEX flag_subject_idx ON flag (subject_kind, subject_key);
COMMENT ON TABLE flag IS 'One finding per rule and subject. Re-running detect over unchanged data changes nothing; '
    'a flag whose evidence grew is updated in place (and reopened if it was dismissed).';
COMMENT ON COLUMN flag.status IS 'open; dismissed by an analyst; superseded when its store account was merged '
    'into another (see store_account_merge).';

-- Analyst views -------------------------------------------------------------------------------------------------

CREATE VIEW flags_open AS
SELECT f.id, f.rule, f.rule_version, f.severity, f.subject_kind, f.subject_key, f.window_start, f.window_end,
       f.score, f.evidence, f.created_at, f.updated_at, f.first_run_id, f.last_run_id
FROM flag f
WHERE f.status = 'open';
COMMENT ON VIEW flags_open IS 'Open flags with their evidence.';

CREATE VIEW store_account_clusters AS
SELECT s.key AS store_account_key, s.is_confirmed, s.original_transactions, s.recorded_store_accounts,
       s.holds_ownable, s.first_purchase_date, s.last_purchase_date,
       (SELECT count(DISTINCT ap.account_key) FROM account_purchase ap WHERE ap.store_account_key = s.key)
           AS app_accounts,
       (SELECT coalesce(jsonb_agg(m.merged_key ORDER BY m.merged_key), '[]') FROM store_account_merge m
        WHERE m.into_key = s.key) AS merged_keys
FROM store_account s;
COMMENT ON VIEW store_account_clusters IS 'Reconstructed store accounts (clusters) with their size and confirmation.';

CREATE VIEW store_account_members AS
SELECT m.store_account_key, m.original_transaction_id, m.holds_ownable, m.first_purchase_date,
       m.last_purchase_date,
       (SELECT coalesce(jsonb_agg(DISTINCT ap.account_key), '[]') FROM account_purchase ap
        WHERE ap.original_transaction_id = m.original_transaction_id) AS app_accounts,
       (SELECT coalesce(jsonb_agg(rs.store_account ORDER BY rs.store_account), '[]') FROM store_account_recorded rs
        WHERE rs.store_account_key = m.store_account_key) AS recorded_store_accounts
FROM store_account_member m;
COMMENT ON VIEW store_account_members IS 'Each original transaction and the store account it belongs to.';

-- Everything about one app account, newest first: filter on account_key (the value hash-username prints).
CREATE VIEW account_history AS
SELECT r.account_key, coalesce(r.recorded_at, r.request_date) AS at, 'receipt' AS kind, r.id::text AS ref,
       jsonb_build_object('receipt_id', r.id, 'status', r.status, 'environment', r.environment,
           'is_sandbox', r.is_sandbox, 'style', r.style, 'bundle_id', r.bundle_id, 'store_account', r.store_account,
           'transaction_entries', r.transaction_entries,
           'receipt_data_sha256', encode(r.receipt_data_sha256, 'hex')) AS detail
FROM receipt r
WHERE r.account_key IS NOT NULL
UNION ALL
SELECT r.account_key, p.purchase_date, 'transaction', p.transaction_id,
       jsonb_build_object('receipt_id', r.id, 'environment', p.environment, 'product_id', p.product_id,
           'original_transaction_id', p.original_transaction_id, 'quantity', p.quantity,
           'cancellation_date', p.cancellation_date, 'cancellation_reason', p.cancellation_reason,
           'is_upgraded', p.is_upgraded, 'in_app_ownership_type', p.in_app_ownership_type,
           'is_trial_period', p.is_trial_period, 'store_account_key', m.store_account_key)
FROM receipt r
JOIN receipt_purchase rp ON rp.receipt_id = r.id
JOIN purchase p ON p.environment = rp.environment AND p.transaction_id = rp.transaction_id
LEFT JOIN store_account_member m ON p.environment = 'Production'
    AND m.original_transaction_id = coalesce(p.original_transaction_id, p.transaction_id)
WHERE r.account_key IS NOT NULL
UNION ALL
SELECT ap.account_key, min(ap.purchase_date), 'store-account', ap.store_account_key,
       jsonb_build_object('store_account_key', ap.store_account_key, 'is_confirmed', bool_or(s.is_confirmed),
           'purchases', count(*), 'last_purchase_date', max(ap.purchase_date))
FROM account_purchase ap
JOIN store_account s ON s.key = ap.store_account_key
GROUP BY ap.account_key, ap.store_account_key
UNION ALL
SELECT f.subject_key, f.window_end, 'flag', f.id::text,
       jsonb_build_object('flag_id', f.id, 'rule', f.rule, 'severity', f.severity, 'status', f.status,
           'score', f.score, 'window_start', f.window_start, 'evidence', f.evidence)
FROM flag f
WHERE f.subject_kind = 'app-account';
COMMENT ON VIEW account_history IS 'An app account''s receipts, transactions, store accounts and flags; '
    'filter on account_key.';

CREATE VIEW rule_hits_daily AS
SELECT f.rule, (coalesce(f.window_end, f.created_at) AT TIME ZONE 'UTC')::date AS day, f.severity,
       count(*) AS hits
FROM flag f
WHERE f.status <> 'superseded'
GROUP BY 1, 2, 3;
COMMENT ON VIEW rule_hits_daily IS 'Flags per rule, severity and day of the last event they cover.';

-- The analyst role: reads the views and the flags, never raw input text (receipt.raw) or the quarantine. Roles are
-- cluster-wide, so it may exist already (another database, a parallel migration); logging in is the DBA's call.
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        IF EXISTS (SELECT FROM pg_roles WHERE rolname = current_user AND (rolsuper OR rolcreaterole)) THEN
            BEGIN
                CREATE ROLE iap_audit_analyst NOLOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL; -- created by a concurrent migration of another database
            END;
        ELSE
            RAISE NOTICE 'cannot create role iap_audit_analyst (no CREATEROLE); ask the DBA, then re-grant';
        END IF;
    END IF;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO iap_audit_analyst', current_database());
        GRANT USAGE ON SCHEMA public TO iap_audit_analyst;
        GRANT SELECT ON flags_open, store_account_clusters, store_account_members, account_history,
            rule_hits_daily, flag, store_account, store_account_member, store_account_merge, account_purchase,
            receipt_summary
            TO iap_audit_analyst;
    END IF;
END
$$;
