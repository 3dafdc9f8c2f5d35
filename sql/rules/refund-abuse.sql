-- rule: refund-abuse
-- version: 2
-- setting: window_days integer = 90
-- setting: warning_refunds integer = 2
-- setting: high_refunds integer = 3
-- setting: min_refund_rate number = 0.5
-- setting: min_purchases_for_rate integer = 4
-- setting: ignored_cancellation_reasons integer[] = [1]
-- setting: warning_declined_requests integer = 3
-- subject: app-account
-- description: Within window_days (by purchase date): >= warning_refunds refunded purchases (>= high_refunds:
--   high), or a refund rate >= min_refund_rate over >= min_purchases_for_rate purchases; or, on their own,
--   >= warning_declined_requests refund requests Apple did not grant (REFUND_DECLINED, or a CONSUMPTION_REQUEST
--   whose transaction has no refund that stands), by request date. Only refunds that stand count: one Apple
--   reversed is none. Refunds with an ignored cancellation_reason (1: a problem in our app) are listed but not
--   counted; upgrades and family-shared entries are neither purchases nor refunds.
-- $1: the rule's settings (jsonb).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(days => ($1::jsonb ->> 'window_days')::int) AS window_length,
           ($1::jsonb ->> 'window_days')::int AS window_days,
           ($1::jsonb ->> 'warning_refunds')::int AS warning_at,
           ($1::jsonb ->> 'high_refunds')::int AS high_at,
           ($1::jsonb ->> 'min_refund_rate')::numeric AS min_rate,
           ($1::jsonb ->> 'min_purchases_for_rate')::int AS min_purchases,
           ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> 'ignored_cancellation_reasons')::int) AS ignored,
           coalesce(($1::jsonb ->> 'warning_declined_requests')::int, 3) AS declined_at
),
paid AS (
    SELECT ap.account_key, ap.transaction_id, ap.product_id, ap.purchase_date, ap.cancellation_date,
           ap.cancellation_reason,
           ap.cancellation_date IS NOT NULL AND NOT coalesce(ap.cancellation_reason = ANY (s.ignored), false)
               AS is_refund
    FROM account_purchase ap CROSS JOIN s
    WHERE ap.is_payment AND ap.purchase_date IS NOT NULL
      AND ($2::boolean OR ap.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
),
candidate AS (
    SELECT p.account_key
    FROM paid p CROSS JOIN s
    GROUP BY p.account_key, s.warning_at, s.min_rate, s.min_purchases
    HAVING count(*) FILTER (WHERE p.is_refund)
           >= least(s.warning_at, greatest(1, ceil(s.min_rate * s.min_purchases)))
),
cpaid AS (
    SELECT p.* FROM paid p JOIN candidate USING (account_key)
),
windowed AS (
    SELECT e.account_key, e.purchase_date AS window_end, min(p.purchase_date) AS window_start,
           count(*) AS purchases, count(*) FILTER (WHERE p.is_refund) AS refunds
    FROM (SELECT DISTINCT account_key, purchase_date FROM cpaid) e
    CROSS JOIN s
    JOIN cpaid p ON p.account_key = e.account_key
        AND p.purchase_date > e.purchase_date - s.window_length AND p.purchase_date <= e.purchase_date
    GROUP BY e.account_key, e.purchase_date
),
refund_fired AS (
    SELECT DISTINCT ON (w.account_key) w.*,
           CASE WHEN w.refunds >= s.high_at THEN 'high' ELSE 'warning' END AS severity
    FROM windowed w CROSS JOIN s
    WHERE w.refunds >= s.warning_at
       OR (w.purchases >= s.min_purchases AND w.refunds::numeric / w.purchases >= s.min_rate)
    ORDER BY w.account_key, w.refunds DESC, w.window_end
),
-- Refund requests Apple did not grant, once per transaction, dated by the latest request.
declined AS (
    SELECT ap.account_key, n.transaction_id, ap.product_id, max(n.signed_date) AS requested_at,
           bool_or(n.notification_type = 'REFUND_DECLINED') AS is_declined
    FROM refund_notification n
    JOIN account_purchase ap ON ap.transaction_id = n.transaction_id
    WHERE n.environment = 'Production' AND n.notification_type IN ('REFUND_DECLINED', 'CONSUMPTION_REQUEST')
      AND ap.cancellation_date IS NULL AND n.signed_date IS NOT NULL
      AND ($2::boolean OR ap.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
    GROUP BY ap.account_key, n.transaction_id, ap.product_id
),
declined_fired AS (
    SELECT DISTINCT ON (e.account_key) e.account_key, min(d.requested_at) AS window_start,
           e.requested_at AS window_end, count(*) AS requests
    FROM declined e
    CROSS JOIN s
    JOIN declined d ON d.account_key = e.account_key
        AND d.requested_at > e.requested_at - s.window_length AND d.requested_at <= e.requested_at
    GROUP BY e.account_key, e.requested_at, s.declined_at
    HAVING count(*) >= s.declined_at
    ORDER BY e.account_key, count(*) DESC, e.requested_at
),
fired AS (
    SELECT coalesce(r.account_key, d.account_key) AS account_key, coalesce(r.severity, 'warning') AS severity,
           coalesce(r.window_start, d.window_start) AS window_start, coalesce(r.window_end, d.window_end) AS window_end,
           coalesce(r.purchases, 0) AS purchases, coalesce(r.refunds, 0) AS refunds,
           coalesce(d.requests, 0) AS declined_requests
    FROM refund_fired r
    FULL JOIN declined_fired d ON d.account_key = r.account_key
)
SELECT 'app-account' AS subject_kind, f.account_key AS subject_key, f.severity, f.window_start, f.window_end,
       (f.refunds + f.declined_requests)::numeric AS score,
       jsonb_build_object(
           'window_days', s.window_days, 'purchases', f.purchases, 'refunds', f.refunds,
           'refund_rate', CASE WHEN f.purchases > 0 THEN round(f.refunds::numeric / f.purchases, 3) END,
           'declined_requests', (SELECT coalesce(jsonb_agg(jsonb_build_object('transaction_id', d.transaction_id,
                                             'product_id', d.product_id, 'requested_at', d.requested_at,
                                             'declined', d.is_declined)
                                         ORDER BY d.requested_at, d.transaction_id), '[]')
                                 FROM declined d WHERE d.account_key = f.account_key),
           'refunded', (SELECT jsonb_agg(jsonb_build_object('transaction_id', p.transaction_id,
                                             'product_id', p.product_id, 'purchase_date', p.purchase_date,
                                             'cancellation_date', p.cancellation_date,
                                             'cancellation_reason', p.cancellation_reason,
                                             'counted', p.is_refund)
                                         ORDER BY p.purchase_date, p.transaction_id)
                        FROM cpaid p
                        WHERE p.account_key = f.account_key AND p.cancellation_date IS NOT NULL
                          AND p.purchase_date >= f.window_start AND p.purchase_date <= f.window_end)
       ) AS evidence
FROM fired f
CROSS JOIN s
