-- Per-file staging for receipt ingest: the copies of transactions the server must look at (each transaction's
-- first copy in the file, later copies that differ or carry a refund or upgrade). Dropped with the transaction.
CREATE TEMPORARY TABLE stage_entry (
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
    app_item_id                   text
) ON COMMIT DROP;
