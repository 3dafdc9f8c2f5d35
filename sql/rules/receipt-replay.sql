-- rule: receipt-replay
-- version: 1
-- setting: min_accounts_per_transaction integer = 2
-- setting: min_accounts_per_original_transaction integer = 3
-- setting: window_days integer = 30
-- setting: min_accounts_per_receipt integer = 2
-- subject: transaction (receipt-data for a byte-identical receipt)
-- description: One consumable transaction posted by >= min_accounts_per_transaction app accounts; one
--   subscription or non-consumable original transaction posted by >= min_accounts_per_original_transaction app
--   accounts within window_days; one byte-identical receipt_data posted by >= min_accounts_per_receipt accounts.
-- $1: the rule's settings (jsonb).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT ($1::jsonb ->> 'min_accounts_per_transaction')::int AS per_transaction,
           ($1::jsonb ->> 'min_accounts_per_original_transaction')::int AS per_original,
           make_interval(days => ($1::jsonb ->> 'window_days')::int) AS window_length,
           ($1::jsonb ->> 'window_days')::int AS window_days,
           ($1::jsonb ->> 'min_accounts_per_receipt')::int AS per_receipt
),
ownable AS (
    SELECT ap.*, ap.product_type IN ('non-consumable', 'auto-renewable', 'non-renewing', 'free-subscription')
               AS is_ownable
    FROM account_purchase ap
    WHERE $2::boolean
       OR ap.transaction_id = ANY (ARRAY(SELECT subject_key FROM detect_pending WHERE subject_kind = 'transaction'))
       OR ap.original_transaction_id = ANY (ARRAY(
           SELECT subject_key FROM detect_pending WHERE subject_kind = 'transaction'))
),
-- Consumables (and products the catalog does not know): one transaction, several accounts.
consumable AS (
    SELECT o.transaction_id, min(o.product_id) AS product_id, count(*) AS accounts,
           min(o.first_posted_at) AS window_start, max(o.first_posted_at) AS window_end
    FROM ownable o CROSS JOIN s
    WHERE o.is_ownable IS NOT TRUE
    GROUP BY o.transaction_id, s.per_transaction
    HAVING count(*) >= s.per_transaction
),
-- Subscriptions and non-consumables: restores legitimately bring one original transaction to a new login, so
-- only many accounts within a short time count.
original_use AS (
    SELECT o.original_transaction_id, o.account_key, min(o.first_posted_at) AS first_posted_at,
           min(o.first_receipt_id) AS first_receipt_id, min(o.product_id) AS product_id
    FROM ownable o
    WHERE o.is_ownable AND o.first_posted_at IS NOT NULL
    GROUP BY o.original_transaction_id, o.account_key
),
original_candidate AS (
    SELECT u.original_transaction_id
    FROM original_use u CROSS JOIN s
    GROUP BY u.original_transaction_id, s.per_original
    HAVING count(*) >= s.per_original
),
original_window AS (
    SELECT DISTINCT ON (e.original_transaction_id) e.original_transaction_id, e.first_posted_at AS window_end,
           min(u.first_posted_at) AS window_start, count(*) AS accounts, min(u.product_id) AS product_id
    FROM original_use e
    JOIN original_candidate USING (original_transaction_id)
    CROSS JOIN s
    JOIN original_use u ON u.original_transaction_id = e.original_transaction_id
        AND u.first_posted_at > e.first_posted_at - s.window_length AND u.first_posted_at <= e.first_posted_at
    GROUP BY e.original_transaction_id, e.first_posted_at
    ORDER BY e.original_transaction_id, count(*) DESC, e.first_posted_at
),
-- One receipt, byte for byte, from several accounts.
same_bytes AS (
    SELECT r.receipt_data_sha256, count(DISTINCT r.account_key) AS accounts,
           min(coalesce(r.recorded_at, r.request_date)) AS window_start,
           max(coalesce(r.recorded_at, r.request_date)) AS window_end
    FROM receipt_summary r CROSS JOIN s
    WHERE r.receipt_data_sha256 IS NOT NULL AND r.account_key IS NOT NULL AND NOT r.is_sandbox
      AND ($2::boolean OR r.receipt_data_sha256 = ANY (ARRAY(SELECT decode(subject_key, 'hex') FROM detect_pending
                                                    WHERE subject_kind = 'receipt-data')))
    GROUP BY r.receipt_data_sha256, s.per_receipt
    HAVING count(DISTINCT r.account_key) >= s.per_receipt
),
-- The evidence is gathered in steps joined by key, not by subqueries per flag in the select list: Citus runs no
-- correlated subquery beside a CTE (docs/scale.md).
consumable_posts AS (
    SELECT o.transaction_id,
           jsonb_agg(jsonb_build_object('account_key', o.account_key, 'first_receipt_id', o.first_receipt_id,
                                        'first_posted_at', o.first_posted_at)
                     ORDER BY o.first_posted_at, o.account_key) AS posts
    FROM account_purchase o
    WHERE o.transaction_id = ANY (ARRAY(SELECT transaction_id FROM consumable))
    GROUP BY o.transaction_id
),
original_posts AS (
    SELECT w.original_transaction_id,
           jsonb_agg(jsonb_build_object('account_key', u.account_key, 'first_receipt_id', u.first_receipt_id,
                                        'first_posted_at', u.first_posted_at)
                     ORDER BY u.first_posted_at, u.account_key) AS posts
    FROM original_window w
    CROSS JOIN s
    JOIN original_use u ON u.original_transaction_id = w.original_transaction_id
        AND u.first_posted_at >= w.window_start AND u.first_posted_at <= w.window_end
    WHERE w.accounts >= s.per_original
    GROUP BY w.original_transaction_id
),
same_bytes_receipt AS (
    SELECT r.id, r.receipt_data_sha256, r.account_key, r.status, r.recorded_at, r.is_sandbox
    FROM receipt_summary r
    WHERE r.receipt_data_sha256 = ANY (ARRAY(SELECT receipt_data_sha256 FROM same_bytes))
),
same_bytes_posts AS (
    SELECT r.receipt_data_sha256,
           jsonb_agg(jsonb_build_object('receipt_id', r.id, 'account_key', r.account_key, 'status', r.status,
                                        'recorded_at', r.recorded_at) ORDER BY r.id) AS posts
    FROM same_bytes_receipt r
    WHERE r.account_key IS NOT NULL AND NOT r.is_sandbox
    GROUP BY r.receipt_data_sha256
),
-- Every copy a receipt lists was merged into purchase (receipt_merge.sql), so its transactions are read from the
-- copies alone.
same_bytes_transactions AS (
    SELECT r.receipt_data_sha256, jsonb_agg(DISTINCT rp.transaction_id) AS transaction_ids
    FROM same_bytes_receipt r
    JOIN receipt_purchase rp ON rp.receipt_id = r.id
    GROUP BY r.receipt_data_sha256
)
SELECT 'transaction' AS subject_kind, c.transaction_id AS subject_key, 'high' AS severity,
       c.window_start, c.window_end, c.accounts::numeric AS score,
       jsonb_build_object('pattern', 'transaction-posted-by-several-accounts', 'transaction_id', c.transaction_id,
                          'product_id', c.product_id, 'app_accounts', c.accounts, 'posts', x.posts) AS evidence
FROM consumable c
JOIN consumable_posts x USING (transaction_id)
UNION ALL
SELECT 'transaction', w.original_transaction_id, 'high', w.window_start, w.window_end, w.accounts::numeric,
       jsonb_build_object('pattern', 'original-transaction-posted-by-several-accounts',
           'original_transaction_id', w.original_transaction_id, 'product_id', w.product_id,
           'window_days', s.window_days, 'app_accounts', w.accounts, 'posts', x.posts)
FROM original_window w
CROSS JOIN s
JOIN original_posts x USING (original_transaction_id)
UNION ALL
SELECT 'receipt-data', encode(b.receipt_data_sha256, 'hex'), 'high', b.window_start, b.window_end,
       b.accounts::numeric,
       jsonb_build_object('pattern', 'identical-receipt-posted-by-several-accounts',
           'receipt_data_sha256', encode(b.receipt_data_sha256, 'hex'), 'app_accounts', b.accounts,
           'posts', x.posts, 'transaction_ids', t.transaction_ids)
FROM same_bytes b
JOIN same_bytes_posts x USING (receipt_data_sha256)
LEFT JOIN same_bytes_transactions t USING (receipt_data_sha256)
