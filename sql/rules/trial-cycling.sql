-- rule: trial-cycling
-- version: 1
-- setting: window_days integer = 180
-- setting: min_intro_offer_starts integer = 2
-- subject: app-account
-- description: >= min_intro_offer_starts introductory offers (free trial or intro price) started in one
--   subscription group within window_days, each a different original transaction (so different store accounts).
--   Receipts without subscription_group_identifier count each app as one group.
-- $1: the rule's settings (jsonb): window_days, min_intro_offer_starts.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(days => ($1::jsonb ->> 'window_days')::int) AS window_length,
           ($1::jsonb ->> 'window_days')::int AS window_days,
           ($1::jsonb ->> 'min_intro_offer_starts')::int AS min_starts
),
starts AS (
    SELECT ap.account_key, ap.subscription_group, ap.original_transaction_id,
           min(ap.purchase_date) AS started, min(ap.product_id) AS product_id,
           min(ap.store_account_key) AS store_account_key
    FROM account_purchase ap
    WHERE ap.is_intro_offer AND ap.purchase_date IS NOT NULL
      AND ($2::boolean OR ap.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
    GROUP BY ap.account_key, ap.subscription_group, ap.original_transaction_id
),
candidate AS (
    SELECT t.account_key, t.subscription_group
    FROM starts t CROSS JOIN s
    GROUP BY t.account_key, t.subscription_group, s.min_starts
    HAVING count(*) >= s.min_starts
),
windowed AS (
    SELECT DISTINCT ON (e.account_key) e.account_key, e.subscription_group, e.started AS window_end,
           min(t.started) AS window_start, count(*) AS intro_starts
    FROM starts e
    JOIN candidate USING (account_key, subscription_group)
    CROSS JOIN s
    JOIN starts t ON t.account_key = e.account_key AND t.subscription_group = e.subscription_group
        AND t.started > e.started - s.window_length AND t.started <= e.started
    GROUP BY e.account_key, e.subscription_group, e.started
    ORDER BY e.account_key, count(*) DESC, e.started, e.subscription_group
)
SELECT 'app-account' AS subject_kind, w.account_key AS subject_key, 'warning' AS severity, w.window_start,
       w.window_end, w.intro_starts::numeric AS score,
       jsonb_build_object(
           'window_days', s.window_days, 'subscription_group', w.subscription_group,
           'intro_offer_starts', w.intro_starts,
           'starts', (SELECT jsonb_agg(jsonb_build_object('original_transaction_id', t.original_transaction_id,
                                           'product_id', t.product_id, 'started', t.started,
                                           'store_account_key', t.store_account_key)
                                       ORDER BY t.started, t.original_transaction_id)
                      FROM starts t
                      WHERE t.account_key = w.account_key AND t.subscription_group = w.subscription_group
                        AND t.started >= w.window_start AND t.started <= w.window_end)
       ) AS evidence
FROM windowed w
CROSS JOIN s
WHERE w.intro_starts >= s.min_starts
