-- Moves one file's staged transaction copies into purchase; receipt_compare_copies.sql then records the
-- disagreeing ones and fills an expiry only a later copy carries. (Receipts, their links to transactions and pending
-- renewals were COPYed straight into their tables.)
-- Statements end with ';' at the end of a line; each runs in the file's transaction.

-- New transactions: the first copy in file order wins.
INSERT INTO purchase (environment, transaction_id, original_transaction_id, product_id, quantity, purchase_date,
    original_purchase_date, expires_date, cancellation_date, cancellation_reason, web_order_line_item_id,
    is_trial_period, is_in_intro_offer_period, is_upgraded, in_app_ownership_type, subscription_group_identifier,
    promotional_offer_id, offer_code_ref_name, app_account_token, item_id, bundle_id, app_item_id, signed_date, price,
    currency, storefront, storefront_id, type, transaction_reason, revocation_date, revocation_reason, revocation_type,
    revocation_percentage, offer_type, offer_identifier, offer_discount_type, offer_period, app_transaction_id,
    first_receipt_id)
SELECT DISTINCT ON (s.environment, s.transaction_id)
    s.environment, s.transaction_id, s.original_transaction_id, s.product_id, s.quantity, s.purchase_date,
    s.original_purchase_date, s.expires_date, s.cancellation_date, s.cancellation_reason, s.web_order_line_item_id,
    s.is_trial_period, s.is_in_intro_offer_period, s.is_upgraded, s.in_app_ownership_type,
    s.subscription_group_identifier, s.promotional_offer_id, s.offer_code_ref_name, s.app_account_token, s.item_id,
    s.bundle_id, s.app_item_id, s.signed_date, s.price, s.currency, s.storefront, s.storefront_id, s.type,
    s.transaction_reason, s.revocation_date, s.revocation_reason, s.revocation_type, s.revocation_percentage,
    s.offer_type, s.offer_identifier, s.offer_discount_type, s.offer_period, s.app_transaction_id, s.receipt_id
FROM stage_entry s
ORDER BY s.environment, s.transaction_id, s.receipt_id, s.source, s.ordinal
ON CONFLICT (environment, transaction_id) DO NOTHING;

-- A refund, revocation or upgrade shows up in later copies of a transaction: record the first one seen.
UPDATE purchase p
SET changed_receipt_id = s.receipt_id,
    cancellation_date = coalesce(p.cancellation_date, s.cancellation_date),
    cancellation_reason = coalesce(p.cancellation_reason, s.cancellation_reason),
    is_upgraded = CASE WHEN s.is_upgraded THEN true ELSE p.is_upgraded END,
    revocation_date = coalesce(p.revocation_date, s.revocation_date),
    revocation_reason = coalesce(p.revocation_reason, s.revocation_reason),
    revocation_type = coalesce(p.revocation_type, s.revocation_type),
    revocation_percentage = coalesce(p.revocation_percentage, s.revocation_percentage)
FROM (
    SELECT DISTINCT ON (environment, transaction_id) environment, transaction_id, product_id, cancellation_date,
        cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage,
        receipt_id
    FROM stage_entry
    WHERE cancellation_date IS NOT NULL OR is_upgraded OR revocation_date IS NOT NULL
    ORDER BY environment, transaction_id, receipt_id, source, ordinal
) s
WHERE p.environment = s.environment AND p.transaction_id = s.transaction_id AND p.product_id = s.product_id
  AND ((p.cancellation_date IS NULL AND s.cancellation_date IS NOT NULL)
       OR (s.is_upgraded AND p.is_upgraded IS DISTINCT FROM true)
       OR (p.revocation_date IS NULL AND s.revocation_date IS NOT NULL));

-- A transaction first stored from a verifyReceipt copy takes what only StoreKit 2 says from its first signed copy.
UPDATE purchase p
SET changed_receipt_id = s.receipt_id, signed_date = s.signed_date, price = s.price, currency = s.currency,
    storefront = s.storefront, storefront_id = s.storefront_id, type = s.type,
    transaction_reason = s.transaction_reason, offer_type = s.offer_type, offer_identifier = s.offer_identifier, offer_discount_type = s.offer_discount_type,
    offer_period = s.offer_period, app_transaction_id = s.app_transaction_id
FROM (
    SELECT DISTINCT ON (environment, transaction_id) *
    FROM stage_entry
    WHERE source = 'signed'
    ORDER BY environment, transaction_id, receipt_id, ordinal
) s
WHERE p.environment = s.environment AND p.transaction_id = s.transaction_id AND p.product_id = s.product_id
  AND p.signed_date IS NULL AND s.signed_date IS NOT NULL;
