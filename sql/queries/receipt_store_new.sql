-- Stores the transactions of one file that purchase does not hold yet, from its staged copies: the first copy in
-- file order wins. Runs first in the file's merge, on plain PostgreSQL and on Citus alike (one text for both:
-- receipt_merge.sql and its .citus.sql form follow it in the same round trip). The unique key makes a re-ingest and
-- overlapping files idempotent. Sorted so that the rows reach the key's index in order (the sort is what makes this
-- statement fast), by transaction id before environment: the same groups, the same first copies, and within each
-- environment the key's order; with environment first (one value, or two) nearly every comparison of the sort
-- compared two texts instead of one, and the sort took twice as long.
INSERT INTO purchase (environment, transaction_id, original_transaction_id, product_id, quantity, purchase_date,
    original_purchase_date, expires_date, cancellation_date, cancellation_reason, web_order_line_item_id,
    is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type, subscription_group_identifier,
    promotional_offer_id, offer_code_ref_name, app_account_token, item_id, bundle_id, app_item_id, signed_date, price,
    currency, storefront, storefront_id, type, transaction_reason, revocation_date, revocation_reason, revocation_type,
    revocation_percentage, offer_type, offer_identifier, offer_discount_type, offer_period, app_transaction_id,
    first_receipt_id)
SELECT DISTINCT ON (s.transaction_id, s.environment)
    s.environment, s.transaction_id, s.original_transaction_id, s.product_id, s.quantity, s.purchase_date,
    s.original_purchase_date, s.expires_date, s.cancellation_date, s.cancellation_reason, s.web_order_line_item_id,
    s.is_trial_period, s.is_in_intro_offer_period, s.is_upgraded, s.in_app_ownership_type,
    s.subscription_group_identifier, s.promotional_offer_id, s.offer_code_ref_name, s.app_account_token, s.item_id,
    s.bundle_id, s.app_item_id, s.signed_date, s.price, s.currency, s.storefront, s.storefront_id, s.type,
    s.transaction_reason, s.revocation_date, s.revocation_reason, s.revocation_type, s.revocation_percentage,
    s.offer_type, s.offer_identifier, s.offer_discount_type, s.offer_period, s.app_transaction_id, s.receipt_id
FROM stage_entry s
ORDER BY s.transaction_id, s.environment, s.receipt_id, s.source, s.ordinal
ON CONFLICT (environment, transaction_id) DO NOTHING;
