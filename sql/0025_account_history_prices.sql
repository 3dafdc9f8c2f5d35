-- Prices in an account's history (issue 36): a transaction row says what the customer paid for one unit (the row's
-- detail has the quantity), where the transaction carries it (StoreKit 2: purchase.price in milliunits of
-- purchase.currency). A legacy (verifyReceipt) transaction carries no price, and no other row kind has one: their
-- price and currency are NULL, never a guess from a catalog.
-- The columns are added at the end, so the view keeps its columns, rows, grants and comment (CREATE OR REPLACE);
-- the body is migration 0020's, the form Citus can run.
CREATE OR REPLACE VIEW account_history AS
SELECT r.account_key, coalesce(r.recorded_at, r.request_date) AS at, 'receipt' AS kind, r.id::text AS ref,
       jsonb_build_object('receipt_id', r.id, 'status', r.status, 'environment', r.environment,
           'is_sandbox', r.is_sandbox, 'style', r.style, 'bundle_id', r.bundle_id, 'store_account', r.store_account,
           'transaction_entries', r.transaction_entries,
           'receipt_data_sha256', encode(r.receipt_data_sha256, 'hex')) AS detail,
       NULL::numeric AS price, NULL::text AS currency
FROM receipt r
WHERE r.account_key IS NOT NULL
UNION ALL
SELECT x.account_key, x.purchase_date, 'transaction', x.transaction_id,
       jsonb_build_object('receipt_id', x.receipt_id, 'environment', x.environment, 'product_id', x.product_id,
           'original_transaction_id', x.original_transaction_id, 'quantity', x.quantity,
           'cancellation_date', x.cancellation_date, 'cancellation_reason', x.cancellation_reason,
           'is_upgraded', x.is_upgraded, 'in_app_ownership_type', x.in_app_ownership_type,
           'is_trial_period', x.is_trial_period, 'store_account_key', m.store_account_key),
       -- Units of the currency, as reconciliation shows amounts: cents unless the price has a tenth of a cent.
       round(x.price / 1000.0, CASE WHEN x.price % 10 = 0 THEN 2 ELSE 3 END),
       CASE WHEN x.price IS NOT NULL THEN x.currency END
FROM (
    SELECT r.account_key, r.id AS receipt_id, p.environment, p.transaction_id, p.purchase_date, p.product_id,
           p.original_transaction_id, p.quantity, p.cancellation_date, p.cancellation_reason, p.is_upgraded,
           p.in_app_ownership_type, p.is_trial_period, p.price, p.currency
    FROM receipt r
    JOIN receipt_purchase rp ON rp.receipt_id = r.id
    JOIN purchase p ON p.environment = rp.environment AND p.transaction_id = rp.transaction_id
    WHERE r.account_key IS NOT NULL
) x
LEFT JOIN store_account_member m ON x.environment = 'Production'
    AND m.original_transaction_id = coalesce(x.original_transaction_id, x.transaction_id)
UNION ALL
SELECT ap.account_key, min(ap.purchase_date), 'store-account', ap.store_account_key,
       jsonb_build_object('store_account_key', ap.store_account_key, 'is_confirmed', bool_or(s.is_confirmed),
           'purchases', count(*), 'last_purchase_date', max(ap.purchase_date)),
       NULL, NULL
FROM account_purchase ap
JOIN store_account s ON s.key = ap.store_account_key
GROUP BY ap.account_key, ap.store_account_key
UNION ALL
SELECT f.subject_key, f.window_end, 'flag', f.id::text,
       jsonb_build_object('flag_id', f.id, 'rule', f.rule, 'severity', f.severity, 'status', f.status,
           'score', f.score, 'window_start', f.window_start, 'evidence', f.evidence),
       NULL, NULL
FROM flag f
WHERE f.subject_kind = 'app-account';

COMMENT ON COLUMN account_history.price IS 'A transaction''s customer price for one unit, in units of currency '
    '(StoreKit 2 only; NULL for a legacy transaction and for every other kind of row).';
COMMENT ON COLUMN account_history.currency IS 'The ISO 4217 currency of price; NULL where price is.';
