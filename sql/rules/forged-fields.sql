-- rule: forged-fields
-- version: 2
-- setting: max_expiry_years_ahead integer = 10
-- subject: receipt
-- description: A status-0 receipt with impossible values: a transaction id that is not decimal, a transaction id
--   equal to an app id (the catalog's, or any receipt's app_item_id or adam_id), an expiry more than
--   max_expiry_years_ahead after the purchase, an empty in_app on an app receipt that claims a subscription
--   (latest_receipt_info or pending_renewal_info present), or a date whose forms (_ms, the text, _pst) name instants
--   more than a day apart (receipt.date_disagreements: the field, both values and the difference in the evidence).
-- $1: the rule's settings (jsonb): max_expiry_years_ahead.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(years => ($1::jsonb ->> 'max_expiry_years_ahead')::int) AS max_ahead
),
-- The purchases the queued receipts list, with their ids (a receipt's problems come from its purchases).
-- The queued receipts' transactions, read by key from their copies: Citus cannot join the copies (split by receipt)
-- to the transactions in a filtered join (docs/scale.md).
scoped_copy AS (
    SELECT rp.environment, rp.transaction_id
    FROM receipt_purchase rp
    WHERE rp.receipt_id = ANY (ARRAY(SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt'))
),
scoped_purchase AS (
    SELECT p.id, p.transaction_id, p.original_transaction_id
    FROM purchase p
    WHERE (p.environment, p.transaction_id) IN (SELECT environment, transaction_id FROM scoped_copy)
),
scoped_id AS (
    SELECT transaction_id AS id FROM scoped_purchase
    UNION
    SELECT original_transaction_id FROM scoped_purchase WHERE original_transaction_id IS NOT NULL
),
-- Purchases with an impossible value first (one pass over purchase), then the status-0 receipts listing them.
-- Every app id, or (queued subjects only) the ids of queued receipts' purchases that are also some receipt's app id:
-- found from those few ids, so the plan expects a few rows, not every receipt's (its hash tables were sized for
-- every receipt, which cost more than the rule's work).
app_id AS (
    SELECT apple_id AS id FROM app WHERE apple_id IS NOT NULL
    UNION
    SELECT app_item_id FROM receipt_summary WHERE $2::boolean AND app_item_id IS NOT NULL
    UNION
    SELECT adam_id FROM receipt_summary WHERE $2::boolean AND adam_id IS NOT NULL
    UNION
    -- Looked up by key (Citus runs no correlated EXISTS beside a CTE); DISTINCT keeps the planner's estimate of a
    -- scoped run's ids small, so that the tests below hash them instead of scanning them per transaction.
    SELECT DISTINCT r.app_item_id FROM receipt_summary r
    WHERE NOT $2::boolean AND r.app_item_id IS NOT NULL AND r.app_item_id = ANY (ARRAY(SELECT id FROM scoped_id))
    UNION
    SELECT DISTINCT r.adam_id FROM receipt_summary r
    WHERE NOT $2::boolean AND r.adam_id IS NOT NULL AND r.adam_id = ANY (ARRAY(SELECT id FROM scoped_id))
),
suspect AS (
    SELECT p.id, p.environment, p.transaction_id, p.original_transaction_id, p.expires_date,
           p.transaction_id !~ '^[0-9]+$' AS bad_id,
           p.original_transaction_id !~ '^[0-9]+$' AS bad_original,
           (p.transaction_id IN (SELECT id FROM app_id) OR p.original_transaction_id IN (SELECT id FROM app_id))
               AS is_app_id,
           p.expires_date > coalesce(p.purchase_date, p.original_purchase_date) + s.max_ahead AS expires_ahead
    FROM purchase p CROSS JOIN s
    WHERE ($2::boolean OR p.id = ANY (ARRAY(SELECT id FROM scoped_purchase)))
      AND (p.transaction_id !~ '^[0-9]+$' OR p.original_transaction_id !~ '^[0-9]+$'
           OR p.transaction_id IN (SELECT id FROM app_id) OR p.original_transaction_id IN (SELECT id FROM app_id)
           OR p.expires_date > coalesce(p.purchase_date, p.original_purchase_date) + s.max_ahead)
),
listed AS (
    SELECT r.id AS receipt_id, x.*
    FROM suspect x
    JOIN receipt_purchase rp ON rp.environment = x.environment AND rp.transaction_id = x.transaction_id
    JOIN receipt_summary r ON r.id = rp.receipt_id AND r.status = 0
),
problem AS (
    SELECT l.receipt_id, 'transaction id is not decimal' AS problem, l.transaction_id, l.transaction_id AS value,
           NULL::jsonb AS detail
    FROM listed l
    WHERE l.bad_id
    UNION ALL
    SELECT l.receipt_id, 'original transaction id is not decimal', l.transaction_id, l.original_transaction_id, NULL
    FROM listed l
    WHERE l.bad_original
    UNION ALL
    SELECT l.receipt_id, 'transaction id equals an app id', l.transaction_id, l.transaction_id, NULL
    FROM listed l
    WHERE l.is_app_id
    UNION ALL
    SELECT l.receipt_id, 'expiry decades ahead', l.transaction_id, l.expires_date::text, NULL
    FROM listed l
    WHERE l.expires_ahead
    UNION ALL
    SELECT r.id, 'empty in_app on a receipt that claims a subscription', NULL, NULL, NULL
    FROM receipt_summary r
    WHERE r.status = 0 AND r.style = 'ios7' AND ($2::boolean OR r.id = ANY (ARRAY(
        SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt')))
      AND NOT EXISTS (SELECT 1 FROM receipt_purchase rp WHERE rp.receipt_id = r.id AND rp.source = 'in_app')
      AND (EXISTS (SELECT 1 FROM receipt_purchase rp WHERE rp.receipt_id = r.id AND rp.source = 'latest_receipt_info')
           OR EXISTS (SELECT 1 FROM pending_renewal n WHERE n.receipt_id = r.id))
    UNION ALL
    -- Read from receipt itself: its partial index holds just the receipts with a disagreement.
    SELECT r.id, 'date forms disagree', NULL, d ->> 'other',
           d || jsonb_build_object('difference', ((d ->> 'other')::timestamptz - (d ->> 'kept')::timestamptz)::text)
    FROM receipt r CROSS JOIN LATERAL jsonb_array_elements(r.date_disagreements) d
    WHERE r.date_disagreements IS NOT NULL AND r.status = 0 AND ($2::boolean OR r.id = ANY (ARRAY(
        SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt')))
)
SELECT 'receipt' AS subject_kind, r.id::text AS subject_key, 'high' AS severity,
       coalesce(r.recorded_at, r.request_date) AS window_start, coalesce(r.recorded_at, r.request_date) AS window_end,
       count(*)::numeric AS score,
       jsonb_build_object(
           'receipt_id', r.id, 'file', f.path, 'line', r.line, 'account_key', r.account_key,
           'bundle_id', r.bundle_id, 'app_item_id', r.app_item_id,
           'problems', jsonb_agg(jsonb_build_object('problem', x.problem, 'transaction_id', x.transaction_id,
                                                    'value', x.value) || coalesce(x.detail, '{}')
                                 ORDER BY x.problem, x.transaction_id, x.value, x.detail)
       ) AS evidence
FROM (SELECT DISTINCT * FROM problem) x
JOIN receipt_summary r ON r.id = x.receipt_id
LEFT JOIN input_file f ON f.id = r.file_id
GROUP BY r.id, r.recorded_at, r.request_date, r.line, r.account_key, r.bundle_id, r.app_item_id, f.path
