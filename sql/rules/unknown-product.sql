-- rule: unknown-product
-- version: 1
-- subject: transaction
-- description: A production transaction of a catalog app whose product id the catalog does not list for that app
--   (an app missing altogether is foreign-app's finding).
-- $1: the rule's settings (jsonb; none used).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT $1::jsonb AS settings
),
-- The flagged transactions: a catalog app's, with a product the catalog does not list for it.
unknown AS (
    SELECT p.environment, p.transaction_id, p.product_id, p.bundle_id, p.purchase_date, p.first_receipt_id
    FROM purchase p
    JOIN app a ON a.bundle_id = p.bundle_id
    WHERE p.environment = 'Production'
      AND NOT EXISTS (SELECT 1 FROM product x WHERE x.bundle_id = p.bundle_id AND x.product_id = p.product_id)
      AND ($2::boolean OR p.transaction_id = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'transaction')))
),
-- The evidence is gathered in steps joined by key, not by subqueries per flag in the select list: Citus cannot join
-- a transaction's copies to their receipts inside one (docs/scale.md).
known_under AS (
    SELECT x.product_id, jsonb_agg(x.bundle_id ORDER BY x.bundle_id) AS bundle_ids
    FROM product x
    WHERE x.product_id IN (SELECT product_id FROM unknown)
    GROUP BY x.product_id
),
posted_by AS (
    SELECT rp.environment, rp.transaction_id, jsonb_agg(DISTINCT r.account_key) AS account_keys
    FROM receipt_purchase rp
    JOIN receipt_summary r ON r.id = rp.receipt_id
    WHERE rp.transaction_id = ANY (ARRAY(SELECT transaction_id FROM unknown)) AND r.account_key IS NOT NULL
    GROUP BY rp.environment, rp.transaction_id
)
SELECT 'transaction' AS subject_kind, u.transaction_id AS subject_key, 'warning' AS severity,
       u.purchase_date AS window_start, u.purchase_date AS window_end, 1::numeric AS score,
       jsonb_build_object(
           'transaction_id', u.transaction_id, 'product_id', u.product_id, 'bundle_id', u.bundle_id,
           'purchase_date', u.purchase_date, 'first_receipt_id', u.first_receipt_id,
           'known_under_bundle_ids', k.bundle_ids, 'account_keys', b.account_keys
       ) AS evidence
FROM unknown u
CROSS JOIN s
LEFT JOIN known_under k USING (product_id)
LEFT JOIN posted_by b USING (environment, transaction_id)
