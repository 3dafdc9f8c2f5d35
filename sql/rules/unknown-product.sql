-- rule: unknown-product
-- version: 1
-- subject: transaction
-- description: A production transaction of a catalog app whose product id the catalog does not list for that app
--   (an app missing altogether is foreign-app's finding).
-- $1: the rule's settings (jsonb; none used).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT $1::jsonb AS settings
)
SELECT 'transaction' AS subject_kind, p.transaction_id AS subject_key, 'warning' AS severity,
       p.purchase_date AS window_start, p.purchase_date AS window_end, 1::numeric AS score,
       jsonb_build_object(
           'transaction_id', p.transaction_id, 'product_id', p.product_id, 'bundle_id', p.bundle_id,
           'purchase_date', p.purchase_date, 'first_receipt_id', p.first_receipt_id,
           'known_under_bundle_ids', (SELECT jsonb_agg(x.bundle_id ORDER BY x.bundle_id) FROM product x
                                      WHERE x.product_id = p.product_id),
           'account_keys', (SELECT jsonb_agg(DISTINCT r.account_key) FROM receipt_purchase rp
                            JOIN receipt_summary r ON r.id = rp.receipt_id
                            WHERE rp.environment = p.environment AND rp.transaction_id = p.transaction_id
                              AND r.account_key IS NOT NULL)
       ) AS evidence
FROM purchase p
CROSS JOIN s
JOIN app a ON a.bundle_id = p.bundle_id
WHERE p.environment = 'Production'
  AND NOT EXISTS (SELECT 1 FROM product x WHERE x.bundle_id = p.bundle_id AND x.product_id = p.product_id)
  AND ($2::boolean OR p.transaction_id = ANY (ARRAY(
      SELECT subject_key FROM detect_pending WHERE subject_kind = 'transaction')))
