-- rule: purchase-velocity
-- version: 1
-- setting: short_window_minutes integer = 60
-- setting: short_window_purchases integer = 3
-- setting: long_window_hours integer = 24
-- setting: long_window_purchases integer = 10
-- subject: app-account
-- description: >= short_window_purchases purchases within short_window_minutes, or >= long_window_purchases
--   within long_window_hours. Restores, upgrades and family-shared entries are not purchases.
-- $1: the rule's settings (jsonb).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT ($1::jsonb ->> 'short_window_minutes')::int AS short_minutes,
           ($1::jsonb ->> 'short_window_purchases')::int AS short_at,
           ($1::jsonb ->> 'long_window_hours')::int AS long_hours,
           ($1::jsonb ->> 'long_window_purchases')::int AS long_at
),
paid AS (
    SELECT ap.account_key, ap.transaction_id, ap.product_id, ap.purchase_date
    FROM account_purchase ap
    WHERE ap.is_payment AND ap.purchase_date IS NOT NULL
      AND ($2::boolean OR ap.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
),
counted AS (
    SELECT p.account_key, p.purchase_date,
           count(*) OVER (PARTITION BY p.account_key ORDER BY p.purchase_date
                          RANGE BETWEEN make_interval(mins => ($1::jsonb ->> 'short_window_minutes')::int) PRECEDING
                          AND CURRENT ROW) AS in_short,
           count(*) OVER (PARTITION BY p.account_key ORDER BY p.purchase_date
                          RANGE BETWEEN make_interval(hours => ($1::jsonb ->> 'long_window_hours')::int) PRECEDING
                          AND CURRENT ROW) AS in_long
    FROM paid p
),
fired AS (
    SELECT DISTINCT ON (c.account_key) c.account_key, c.purchase_date AS window_end,
           CASE WHEN c.in_long >= s.long_at THEN make_interval(hours => s.long_hours)
                ELSE make_interval(mins => s.short_minutes) END AS window_length,
           c.in_short, c.in_long,
           max(c.in_short) OVER (PARTITION BY c.account_key) AS max_in_short,
           max(c.in_long) OVER (PARTITION BY c.account_key) AS max_in_long
    FROM counted c CROSS JOIN s
    WHERE c.in_short >= s.short_at OR c.in_long >= s.long_at
    ORDER BY c.account_key, (c.in_long >= s.long_at) DESC, c.in_long DESC, c.in_short DESC, c.purchase_date
)
SELECT 'app-account' AS subject_kind, f.account_key AS subject_key, 'warning' AS severity,
       f.window_end - f.window_length AS window_start, f.window_end,
       greatest(f.max_in_short::numeric / s.short_at, f.max_in_long::numeric / s.long_at) AS score,
       jsonb_build_object(
           'short_window_minutes', s.short_minutes, 'max_purchases_in_short_window', f.max_in_short,
           'long_window_hours', s.long_hours, 'max_purchases_in_long_window', f.max_in_long,
           'purchases', (SELECT jsonb_agg(jsonb_build_object('transaction_id', p.transaction_id,
                                              'product_id', p.product_id, 'purchase_date', p.purchase_date)
                                          ORDER BY p.purchase_date, p.transaction_id)
                         FROM paid p
                         WHERE p.account_key = f.account_key
                           AND p.purchase_date > f.window_end - f.window_length AND p.purchase_date <= f.window_end)
       ) AS evidence
FROM fired f
CROSS JOIN s
