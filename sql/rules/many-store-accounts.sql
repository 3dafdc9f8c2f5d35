-- rule: many-store-accounts
-- version: 1
-- setting: window_days integer = 30
-- setting: warning_store_accounts integer = 3
-- setting: high_store_accounts integer = 5
-- setting: burst_hours integer = 24
-- setting: burst_new_store_accounts integer = 2
-- subject: app-account
-- description: One app account paying from many App Store accounts: >= warning_store_accounts confirmed store
--   accounts within window_days (>= high_store_accounts: high), or >= burst_new_store_accounts new ones (beyond
--   the account's first) within burst_hours: high. Unconfirmed clusters are reported beside, as an upper bound.
-- $1: the rule's settings (jsonb): window_days, warning_store_accounts, high_store_accounts, burst_hours,
--   burst_new_store_accounts.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(days => ($1::jsonb ->> 'window_days')::int) AS window_length,
           ($1::jsonb ->> 'window_days')::int AS window_days,
           ($1::jsonb ->> 'warning_store_accounts')::int AS warning_at,
           ($1::jsonb ->> 'high_store_accounts')::int AS high_at,
           make_interval(hours => ($1::jsonb ->> 'burst_hours')::int) AS burst_length,
           ($1::jsonb ->> 'burst_new_store_accounts')::int AS burst_at
),
paid AS (
    SELECT ap.account_key, ap.store_account_key, sa.is_confirmed, ap.purchase_date, ap.transaction_id
    FROM account_purchase ap
    JOIN store_account sa ON sa.key = ap.store_account_key
    WHERE ap.is_payment AND ap.purchase_date IS NOT NULL
      AND ($2::boolean OR ap.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
),
-- Only accounts that paid from enough confirmed store accounts in all can fire: the windowed self-join stays small.
candidate AS (
    SELECT p.account_key
    FROM paid p CROSS JOIN s
    GROUP BY p.account_key, s.warning_at, s.burst_at
    HAVING count(DISTINCT p.store_account_key) FILTER (WHERE p.is_confirmed) >= least(s.warning_at, s.burst_at + 1)
),
cpaid AS (
    SELECT p.* FROM paid p JOIN candidate c USING (account_key)
),
-- Each payment ends a window: the store accounts paid from in the window_days before it.
windowed AS (
    SELECT e.account_key, e.purchase_date AS window_end, min(p.purchase_date) AS window_start,
           count(DISTINCT p.store_account_key) FILTER (WHERE p.is_confirmed) AS confirmed,
           count(DISTINCT p.store_account_key) AS upper_bound
    FROM (SELECT DISTINCT account_key, purchase_date FROM cpaid) e
    CROSS JOIN s
    JOIN cpaid p ON p.account_key = e.account_key
        AND p.purchase_date > e.purchase_date - s.window_length AND p.purchase_date <= e.purchase_date
    GROUP BY e.account_key, e.purchase_date
),
best AS (
    SELECT DISTINCT ON (account_key) *
    FROM windowed
    ORDER BY account_key, confirmed DESC, window_end
),
-- New store accounts: confirmed ones first paid from after the account's first store account.
firsts AS (
    SELECT account_key, store_account_key, min(purchase_date) AS first_paid,
           rank() OVER (PARTITION BY account_key ORDER BY min(purchase_date)) AS position
    FROM cpaid
    WHERE is_confirmed
    GROUP BY account_key, store_account_key
),
burst AS (
    SELECT DISTINCT ON (f.account_key) f.account_key, f.first_paid AS burst_start, count(*) AS new_accounts,
           max(g.first_paid) AS burst_end
    FROM firsts f
    CROSS JOIN s
    JOIN firsts g ON g.account_key = f.account_key AND g.position > 1
        AND g.first_paid >= f.first_paid AND g.first_paid <= f.first_paid + s.burst_length
    WHERE f.position > 1
    GROUP BY f.account_key, f.first_paid
    ORDER BY f.account_key, count(*) DESC, f.first_paid
),
fired AS (
    SELECT b.*, coalesce(u.new_accounts, 0) AS burst_new, u.burst_start, u.burst_end,
           CASE WHEN b.confirmed >= s.high_at OR coalesce(u.new_accounts, 0) >= s.burst_at THEN 'high'
                ELSE 'warning' END AS severity
    FROM best b
    CROSS JOIN s
    LEFT JOIN burst u USING (account_key)
    WHERE b.confirmed >= s.warning_at OR coalesce(u.new_accounts, 0) >= s.burst_at
)
SELECT 'app-account' AS subject_kind,
       f.account_key AS subject_key,
       f.severity,
       least(f.window_start, f.burst_start) AS window_start,
       greatest(f.window_end, f.burst_end) AS window_end,
       greatest(f.confirmed, f.burst_new + 1)::numeric AS score,
       jsonb_build_object(
           'window_days', s.window_days,
           'window_start', f.window_start,
           'window_end', f.window_end,
           'confirmed_store_accounts', f.confirmed,
           'store_accounts_upper_bound', f.upper_bound,
           'new_store_accounts_in_burst', f.burst_new,
           'burst_start', f.burst_start,
           'burst_end', f.burst_end,
           'store_accounts', (
               SELECT jsonb_agg(jsonb_build_object(
                          'store_account_key', x.store_account_key, 'is_confirmed', x.is_confirmed,
                          'first_paid', x.first_paid, 'transaction_ids', x.transaction_ids)
                      ORDER BY x.first_paid, x.store_account_key)
               FROM (
                   SELECT p.store_account_key, p.is_confirmed, min(p.purchase_date) AS first_paid,
                          jsonb_agg(p.transaction_id ORDER BY p.purchase_date, p.transaction_id) AS transaction_ids
                   FROM cpaid p
                   WHERE p.account_key = f.account_key
                     AND ((p.purchase_date >= f.window_start AND p.purchase_date <= f.window_end)
                          OR (p.purchase_date >= f.burst_start AND p.purchase_date <= f.burst_end))
                   GROUP BY p.store_account_key, p.is_confirmed
               ) x)
       ) AS evidence
FROM fired f
CROSS JOIN s
