-- rule: forged-fields
-- version: 1
-- subject: receipt
-- description: A status-0 receipt with impossible values: a transaction id that is not decimal, a transaction id
--   equal to an app id, an expiry more than max_expiry_years_ahead after the purchase, or an empty in_app on an app
--   receipt that claims a subscription (latest_receipt_info or pending_renewal_info present).
-- $1: the rule's settings (jsonb): max_expiry_years_ahead.
WITH s AS (
    SELECT make_interval(years => ($1::jsonb ->> 'max_expiry_years_ahead')::int) AS max_ahead
),
listed AS (
    SELECT r.id AS receipt_id, r.app_item_id, r.adam_id, a.apple_id, r.request_date, r.recorded_at,
           p.transaction_id, p.original_transaction_id, p.purchase_date, p.expires_date
    FROM receipt r
    JOIN receipt_purchase rp ON rp.receipt_id = r.id
    JOIN purchase p ON p.id = rp.purchase_id
    LEFT JOIN app a ON a.bundle_id = r.bundle_id
    WHERE r.status = 0
),
problem AS (
    SELECT l.receipt_id, 'transaction id is not decimal' AS problem, l.transaction_id, l.transaction_id AS value
    FROM listed l
    WHERE l.transaction_id !~ '^[0-9]+$'
    UNION ALL
    SELECT l.receipt_id, 'original transaction id is not decimal', l.transaction_id, l.original_transaction_id
    FROM listed l
    WHERE l.original_transaction_id !~ '^[0-9]+$'
    UNION ALL
    SELECT l.receipt_id, 'transaction id equals an app id', l.transaction_id, l.transaction_id
    FROM listed l
    WHERE l.transaction_id IN (l.app_item_id, l.adam_id, l.apple_id)
       OR l.original_transaction_id IN (l.app_item_id, l.adam_id, l.apple_id)
    UNION ALL
    SELECT l.receipt_id, 'expiry decades ahead', l.transaction_id, l.expires_date::text
    FROM listed l CROSS JOIN s
    WHERE l.expires_date > coalesce(l.purchase_date, l.request_date, l.recorded_at) + s.max_ahead
    UNION ALL
    SELECT r.id, 'empty in_app on a receipt that claims a subscription', NULL, NULL
    FROM receipt r
    WHERE r.status = 0 AND r.style = 'ios7'
      AND NOT EXISTS (SELECT 1 FROM receipt_purchase rp WHERE rp.receipt_id = r.id AND rp.source = 'in_app')
      AND (EXISTS (SELECT 1 FROM receipt_purchase rp WHERE rp.receipt_id = r.id AND rp.source = 'latest_receipt_info')
           OR EXISTS (SELECT 1 FROM pending_renewal n WHERE n.receipt_id = r.id))
)
SELECT 'receipt' AS subject_kind, r.id::text AS subject_key, 'high' AS severity,
       coalesce(r.recorded_at, r.request_date) AS window_start, coalesce(r.recorded_at, r.request_date) AS window_end,
       count(*)::numeric AS score,
       jsonb_build_object(
           'receipt_id', r.id, 'file', f.path, 'line', r.line, 'account_key', r.account_key,
           'bundle_id', r.bundle_id, 'app_item_id', r.app_item_id,
           'problems', jsonb_agg(jsonb_build_object('problem', x.problem, 'transaction_id', x.transaction_id,
                                                    'value', x.value)
                                 ORDER BY x.problem, x.transaction_id)
       ) AS evidence
FROM (SELECT DISTINCT * FROM problem) x
JOIN receipt r ON r.id = x.receipt_id
LEFT JOIN input_file f ON f.id = r.file_id
GROUP BY r.id, f.path
