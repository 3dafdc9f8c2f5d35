-- rule: shared-store-account
-- version: 1
-- setting: window_days integer = 30
-- setting: min_app_accounts integer = 3
-- subject: store-account
-- description: One confirmed App Store account used by >= min_app_accounts of our app accounts within
--   window_days (an account "uses" it when it first posts one of its purchases).
-- $1: the rule's settings (jsonb): window_days, min_app_accounts.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(days => ($1::jsonb ->> 'window_days')::int) AS window_length,
           ($1::jsonb ->> 'window_days')::int AS window_days,
           ($1::jsonb ->> 'min_app_accounts')::int AS min_accounts
),
used AS (
    SELECT ap.store_account_key, ap.account_key, min(ap.first_posted_at) AS first_used
    FROM account_purchase ap
    JOIN store_account sa ON sa.key = ap.store_account_key AND sa.is_confirmed
    WHERE ap.first_posted_at IS NOT NULL
      AND ($2::boolean OR ap.store_account_key = ANY (ARRAY(SELECT subject_key FROM detect_pending
                                                   WHERE subject_kind = 'store-account')))
    GROUP BY ap.store_account_key, ap.account_key
),
candidate AS (
    SELECT u.store_account_key
    FROM used u CROSS JOIN s
    GROUP BY u.store_account_key, s.min_accounts
    HAVING count(*) >= s.min_accounts
),
windowed AS (
    SELECT e.store_account_key, e.first_used AS window_end, min(u.first_used) AS window_start,
           count(*) AS app_accounts
    FROM used e
    JOIN candidate c USING (store_account_key)
    CROSS JOIN s
    JOIN used u ON u.store_account_key = e.store_account_key
        AND u.first_used > e.first_used - s.window_length AND u.first_used <= e.first_used
    GROUP BY e.store_account_key, e.first_used
),
best AS (
    SELECT DISTINCT ON (w.store_account_key) w.*
    FROM windowed w CROSS JOIN s
    WHERE w.app_accounts >= s.min_accounts
    ORDER BY w.store_account_key, w.app_accounts DESC, w.window_end
),
-- The evidence is gathered in steps joined by key, not by subqueries per flag in the select list: Citus runs no
-- correlated subquery beside a CTE (docs/scale.md).
use_transactions AS (
    SELECT ap.store_account_key, ap.account_key, jsonb_agg(ap.transaction_id ORDER BY ap.transaction_id) AS ids
    FROM account_purchase ap
    WHERE ap.store_account_key = ANY (ARRAY(SELECT store_account_key FROM best))
    GROUP BY ap.store_account_key, ap.account_key
),
uses AS (
    SELECT b.store_account_key,
           jsonb_agg(jsonb_build_object('account_key', u.account_key, 'first_used', u.first_used,
                                        'transaction_ids', t.ids)
                     ORDER BY u.first_used, u.account_key) AS uses
    FROM best b
    JOIN used u ON u.store_account_key = b.store_account_key
        AND u.first_used >= b.window_start AND u.first_used <= b.window_end
    JOIN use_transactions t ON t.store_account_key = u.store_account_key AND t.account_key = u.account_key
    GROUP BY b.store_account_key
)
SELECT 'store-account' AS subject_kind,
       b.store_account_key AS subject_key,
       'warning' AS severity,
       b.window_start,
       b.window_end,
       b.app_accounts::numeric AS score,
       jsonb_build_object('window_days', s.window_days, 'app_accounts', b.app_accounts, 'uses', x.uses) AS evidence
FROM best b
CROSS JOIN s
JOIN uses x USING (store_account_key)
