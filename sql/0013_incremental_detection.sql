-- Incremental detection (docs/decisions.md, "Incremental detection"). A daily detect re-derived every receipt and
-- purchase the rules read (two materialized views refreshed in full) and ran every rule over all history: its cost
-- grew with the history, not with the day. Now:
-- - receipt_summary and account_purchase are tables that detect maintains from what changed: the receipts of input
--   files it has not seen yet (detect_file) and the purchases those receipts or changed store accounts touch. A full
--   rebuild and an incremental update run the same SQL (sql/queries/detect_prepare.sql).
-- - detect_pending holds the subjects (in the flags' own kinds) whose data changed since the rules last ran; a rule
--   re-evaluates only those, unless the run is full (first run, `detect --full`, changed settings, rule versions or
--   catalog).
-- The first detect after this migration is full: there is no record of the settings it would compare with.

DROP VIEW store_account_clusters, store_account_members, account_history;
DROP MATERIALIZED VIEW account_purchase;
DROP MATERIALIZED VIEW receipt_summary;

CREATE TABLE receipt_summary (
    id                   bigint PRIMARY KEY,
    file_id              bigint NOT NULL,
    line                 integer NOT NULL,
    style                text NOT NULL,
    recorded_at          timestamptz,
    account_key          text,
    store_account        text,
    receipt_data_sha256  bytea,
    status               integer NOT NULL,
    environment          text,
    is_sandbox           boolean NOT NULL,
    receipt_type         text,
    bundle_id            text,
    app_item_id          text,
    adam_id              text,
    request_date         timestamptz,
    transaction_entries  integer NOT NULL
);
CREATE INDEX receipt_summary_sha256_idx ON receipt_summary (receipt_data_sha256)
    WHERE receipt_data_sha256 IS NOT NULL;
CREATE INDEX receipt_summary_account_idx ON receipt_summary (account_key) WHERE account_key IS NOT NULL;
-- Forged-fields asks whether a transaction id is some receipt's app id: by lookup, not by reading every receipt.
CREATE INDEX receipt_summary_app_item_idx ON receipt_summary (app_item_id) WHERE app_item_id IS NOT NULL;
CREATE INDEX receipt_summary_adam_idx ON receipt_summary (adam_id) WHERE adam_id IS NOT NULL;
COMMENT ON TABLE receipt_summary IS 'Each receipt without its raw record; detect adds the receipts of new files '
    '(sql/queries/detect_prepare.sql).';

CREATE TABLE account_purchase (
    account_key              text NOT NULL,
    purchase_id              bigint NOT NULL,
    transaction_id           text NOT NULL,
    original_transaction_id  text NOT NULL,
    product_id               text NOT NULL,
    bundle_id                text,
    product_type             text,
    quantity                 integer NOT NULL,
    purchase_date            timestamptz,
    cancellation_date        timestamptz,
    cancellation_reason      integer,
    is_intro_offer           boolean NOT NULL,
    subscription_group       text,
    is_payment               boolean,
    store_account_key        text,
    first_posted_at          timestamptz,
    first_receipt_id         bigint NOT NULL,
    receipts                 bigint NOT NULL,
    PRIMARY KEY (account_key, purchase_id)
);
CREATE INDEX account_purchase_purchase_idx ON account_purchase (purchase_id);
CREATE INDEX account_purchase_store_account_idx ON account_purchase (store_account_key);
CREATE INDEX account_purchase_transaction_idx ON account_purchase (transaction_id);
CREATE INDEX account_purchase_original_transaction_idx ON account_purchase (original_transaction_id);
COMMENT ON TABLE account_purchase IS 'Each production purchase once per app account that posted it, with its store '
    'account; family-shared entries and upgraded periods left out. Detect recomputes the rows of the purchases that '
    'changed (sql/queries/detect_prepare.sql).';

CREATE TABLE detect_file (
    file_id  bigint PRIMARY KEY,
    run_id   bigint
);
COMMENT ON TABLE detect_file IS 'Receipt files whose receipts detect has folded into receipt_summary and '
    'account_purchase, and whose changed subjects it queued in detect_pending.';

CREATE TABLE detect_pending (
    subject_kind  text NOT NULL,
    subject_key   text NOT NULL,
    PRIMARY KEY (subject_kind, subject_key)
);
COMMENT ON TABLE detect_pending IS 'Subjects (app-account, store-account, transaction, receipt, receipt-data) whose '
    'data changed since every rule last evaluated them; emptied when all rules have.';

-- The clusters one clustering update wrote: their purchases' account_purchase rows name the cluster.
CREATE INDEX store_account_updated_run_idx ON store_account (updated_run_id);

-- The views 0003 made, unchanged, now over the account_purchase table.
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

DELETE FROM detection_state WHERE name = 'rules';

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON store_account_clusters, store_account_members, account_history, account_purchase,
            receipt_summary TO iap_audit_analyst;
    END IF;
END
$$;
