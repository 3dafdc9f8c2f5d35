-- Per-file staging for receipt ingest: the copies of transactions the server must look at (each transaction's
-- first copy in the file, later copies that differ or carry a refund or upgrade). Emptied when the file's transaction
-- commits and kept for the next file of the session: creating and dropping its 41 columns' catalog rows for every file
-- was server time the whole ingest waited for. (Created by a file's transaction that then rolls back, it is gone, and
-- the next file creates it again.)
CREATE TEMPORARY TABLE IF NOT EXISTS stage_entry (
    receipt_id                    bigint NOT NULL,
    source                        text NOT NULL,
    ordinal                       integer NOT NULL,
    environment                   text NOT NULL,
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
    signed_date                   timestamptz,
    price                         bigint,
    currency                      text,
    storefront                    text,
    storefront_id                 text,
    type                          text,
    transaction_reason            text,
    revocation_date               timestamptz,
    revocation_reason             integer,
    revocation_type               text,
    revocation_percentage         integer,
    offer_type                    integer,
    offer_identifier              text,
    offer_discount_type           text,
    offer_period                  text,
    app_transaction_id            text
) ON COMMIT DELETE ROWS;

-- The transactions whose state the file's copies spoke of (receipt_merge.sql), returned with the conflicting ones.
-- state_may_change: false when every copy the file kept carries the state the transaction has (its refund,
-- revocation and upgrade as stored, which are those of the latest copy kept so far): whichever copy is now the latest,
-- the state that stands is the same, and receipt_compare_copies.sql's "what stands" need not read its copies.
CREATE TEMPORARY TABLE IF NOT EXISTS stage_observed (
    environment      text NOT NULL,
    transaction_id   text NOT NULL,
    state_may_change boolean NOT NULL DEFAULT true
) ON COMMIT DELETE ROWS;

-- The staged copies that disagree with their stored transaction, bring an expiry it lacks, or are signed copies of a
-- transaction stored without what only StoreKit 2 says (receipt_compare_copies.sql's lookup, read by its later
-- statements).
CREATE TEMPORARY TABLE IF NOT EXISTS stage_compared (
    purchase_id         bigint NOT NULL,
    receipt_id          bigint NOT NULL,
    source              text NOT NULL,
    ordinal             integer NOT NULL,
    environment         text NOT NULL,
    transaction_id      text NOT NULL,
    expires_date        timestamptz,
    disagrees           boolean NOT NULL,
    brings_expiry       boolean NOT NULL,
    fills_signed_fields boolean NOT NULL
) ON COMMIT DELETE ROWS;

-- The file's records stored before (receipt_dedupe.sql), which receipt_drop_duplicates.sql removes. Kept for the
-- session like the tables above: created and dropped with every file, its catalog rows cost about 0.85 ms a file.
CREATE TEMPORARY TABLE IF NOT EXISTS stage_duplicate (
    id bigint NOT NULL
) ON COMMIT DELETE ROWS;
