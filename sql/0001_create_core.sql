-- IAPAudit core schema: runs, input files, quarantine, receipts, purchases, catalog.
-- Forward only: never edit this file once released; add a new numbered migration instead.
--
-- Bulk tables (receipt, purchase, receipt_purchase, pending_renewal) carry no foreign keys: every row of one input
-- file is written by one transaction that also writes its input_file row, so a reference cannot dangle, and per-row
-- FK triggers would cost a third of the COPY throughput. Small tables keep their foreign keys.

CREATE TABLE pipeline_run (
    id            bigserial PRIMARY KEY,
    command       text NOT NULL,
    started_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz,
    outcome       text NOT NULL DEFAULT 'running'
                  CHECK (outcome IN ('running', 'succeeded', 'failed', 'interrupted', 'rejected')),
    exit_code     integer,
    settings      jsonb NOT NULL DEFAULT '{}',
    summary       jsonb NOT NULL DEFAULT '{}',
    host          text,
    pid           integer,
    version       text
);
COMMENT ON TABLE pipeline_run IS 'One row per iap-audit command that changed data, with its settings, counts and outcome.';

-- Installation-wide facts that must never change silently (e.g. the account-key scheme and pepper fingerprint).
CREATE TABLE install_setting (
    name    text PRIMARY KEY,
    value   text NOT NULL,
    set_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE input_file (
    id                   bigserial PRIMARY KEY,
    sha256               bytea NOT NULL UNIQUE CHECK (length(sha256) = 32),
    size_bytes           bigint NOT NULL,
    kind                 text NOT NULL CHECK (kind IN ('receipts', 'sales', 'catalog')),
    path                 text NOT NULL,
    compression          text NOT NULL CHECK (compression IN ('none', 'gzip')),
    ingested_at          timestamptz NOT NULL DEFAULT now(),
    run_id               bigint REFERENCES pipeline_run (id),
    records_read         integer NOT NULL DEFAULT 0,
    records_stored       integer NOT NULL DEFAULT 0,
    records_quarantined  integer NOT NULL DEFAULT 0,
    transaction_entries  integer NOT NULL DEFAULT 0
);
COMMENT ON TABLE input_file IS 'Every input file once, by content hash: re-ingesting the same bytes is a no-op.';

CREATE TABLE quarantine (
    id              bigserial PRIMARY KEY,
    file_id         bigint REFERENCES input_file (id),
    path            text NOT NULL,
    line            integer NOT NULL,
    record_number   integer,
    reason_code     text NOT NULL,
    message         text NOT NULL,
    excerpt         bytea,
    run_id          bigint REFERENCES pipeline_run (id),
    quarantined_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quarantine_file_idx ON quarantine (file_id);
COMMENT ON TABLE quarantine IS 'Records that could not be read: file, line (0 = the whole file), reason, message and a '
    'bounded excerpt with any application username removed.';

CREATE TABLE receipt (
    -- file_id * 2^32 + record_number: known to the loader before the row exists, so the rows that point at a receipt
    -- are staged with its id and no per-file join is needed to find it.
    id                           bigint PRIMARY KEY CHECK (id = file_id * 4294967296 + record_number),
    file_id                      bigint NOT NULL,
    record_number                integer NOT NULL,
    line                         integer NOT NULL,
    shape                        text NOT NULL,
    style                        text NOT NULL,
    recorded_at                  timestamptz,
    account_key                  text,
    app_account_token            uuid,
    store_account                text,
    receipt_data_sha256          bytea,
    status                       integer NOT NULL,
    environment                  text,
    is_sandbox                   boolean NOT NULL,
    is_retryable                 boolean,
    receipt_type                 text,
    bundle_id                    text,
    app_item_id                  text,
    adam_id                      text,
    download_id                  text,
    application_version          text,
    original_application_version text,
    version_external_identifier  text,
    receipt_creation_date        timestamptz,
    request_date                 timestamptz,
    original_purchase_date       timestamptz,
    notification_type            text,
    transaction_entries          integer NOT NULL,
    raw                          text NOT NULL
);
CREATE INDEX receipt_account_key_idx ON receipt (account_key) WHERE account_key IS NOT NULL;
CREATE INDEX receipt_data_sha256_idx ON receipt (receipt_data_sha256) WHERE receipt_data_sha256 IS NOT NULL;
ALTER TABLE receipt ALTER COLUMN raw SET COMPRESSION lz4;
COMMENT ON COLUMN receipt.raw IS 'The record exactly as recorded, minus the raw application username.';
COMMENT ON COLUMN receipt.account_key IS 'Apple-format SHA-256 of the application username (or its peppered HMAC).';

CREATE TABLE purchase (
    id                            bigserial PRIMARY KEY,
    environment                   text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    transaction_id                text NOT NULL,
    original_transaction_id       text,
    product_id                    text NOT NULL,
    quantity                      integer NOT NULL,
    purchase_date                 timestamptz,
    original_purchase_date        timestamptz,
    expires_date                  timestamptz,
    cancellation_date             timestamptz,
    cancellation_reason           integer,
    web_order_line_item_id        text,
    is_trial_period               boolean,
    is_in_intro_offer_period      boolean,
    is_upgraded                   boolean,
    in_app_ownership_type         text,
    subscription_group_identifier text,
    promotional_offer_id          text,
    offer_code_ref_name           text,
    app_account_token             uuid,
    item_id                       text,
    bundle_id                     text,
    app_item_id                   text,
    first_receipt_id              bigint NOT NULL,
    UNIQUE (environment, transaction_id)
);
CREATE INDEX purchase_original_transaction_idx ON purchase (original_transaction_id);
COMMENT ON TABLE purchase IS 'Each purchase transaction once per (environment, transaction id), as first seen; '
    'refund and upgrade marks from later copies are added, conflicting copies go to purchase_conflict.';

-- Which receipt listed which transaction, and where. Keyed by (environment, transaction id) rather than
-- purchase.id: the loader can then COPY these rows straight in, without looking purchase ids up.
CREATE TABLE receipt_purchase (
    receipt_id      bigint NOT NULL,
    source          text NOT NULL CHECK (source IN ('receipt', 'in_app', 'latest_receipt_info')),
    ordinal         integer NOT NULL,
    environment     text NOT NULL,
    transaction_id  text NOT NULL,
    PRIMARY KEY (receipt_id, source, ordinal)
);
CREATE INDEX receipt_purchase_transaction_idx ON receipt_purchase (environment, transaction_id);

CREATE TABLE purchase_conflict (
    id                       bigserial PRIMARY KEY,
    purchase_id              bigint NOT NULL,
    receipt_id               bigint NOT NULL,
    source                   text NOT NULL,
    ordinal                  integer NOT NULL,
    product_id               text NOT NULL,
    purchase_date            timestamptz,
    original_transaction_id  text,
    UNIQUE (receipt_id, source, ordinal)
);
COMMENT ON TABLE purchase_conflict IS 'A copy of a transaction whose product, purchase date or original transaction '
    'differs from the stored one. Apple never changes these, so each row is a finding.';

CREATE TABLE pending_renewal (
    receipt_id                 bigint NOT NULL,
    ordinal                    integer NOT NULL,
    original_transaction_id    text,
    product_id                 text,
    auto_renew_product_id      text,
    auto_renew_status          boolean,
    expiration_intent          integer,
    is_in_billing_retry_period boolean,
    grace_period_expires_date  timestamptz,
    price_consent_status       integer,
    offer_code_ref_name        text,
    promotional_offer_id       text,
    PRIMARY KEY (receipt_id, ordinal)
);

CREATE TABLE app (
    bundle_id   text PRIMARY KEY,
    apple_id    text UNIQUE,
    sku         text UNIQUE,
    name        text,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE product (
    bundle_id   text NOT NULL REFERENCES app (bundle_id),
    product_id  text NOT NULL,
    type        text CHECK (type IN ('consumable', 'non-consumable', 'auto-renewable', 'non-renewing',
                                     'free-subscription')),
    name        text,
    is_retired  boolean NOT NULL DEFAULT false,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (bundle_id, product_id)
);
CREATE INDEX product_product_id_idx ON product (product_id);
