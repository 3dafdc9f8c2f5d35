-- rule: foreign-app
-- version: 1
-- subject: receipt
-- description: A receipt Apple decoded (status 0 or 21006) whose bundle id or app item id is not in the catalog,
--   or does not match the app of the products it lists. An app of ours missing from the catalog fires too: the
--   evidence says which field was unknown.
-- $1: the rule's settings (jsonb; none used).
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
-- every subject: hash joins
--   (every receipt's products: the planner chose to probe purchase and product a million times, and with file_id
--   repeated below it underestimates the join by the number of files; hashing took half the time, 1.7 s at 1M)
WITH s AS (
    SELECT $1::jsonb AS settings
),
decoded AS (
    SELECT r.*
    FROM receipt_summary r
    WHERE r.status IN (0, 21006) AND (r.bundle_id IS NOT NULL OR r.app_item_id IS NOT NULL)
      AND ($2::boolean OR r.id = ANY (ARRAY(
          SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt')))
),
-- The decoded receipts' copies, then their transactions by key, each a CTE of its own: PostgreSQL inlines both and
-- plans one join, as before; Citus, which cannot join copies (split by receipt) to transactions (split by
-- transaction) with the scope's filter in the join, reads the scoped copies first and sends only those to the
-- transactions' workers (docs/scale.md).
copy_scope AS (
    SELECT rp.receipt_id, r.bundle_id, rp.environment, rp.transaction_id
    FROM receipt_summary r
    -- file_id repeats the id's high half, so that a hash join of receipt ids spreads (store_accounts_prepare.sql).
    JOIN receipt_purchase rp ON rp.receipt_id = r.id AND r.file_id = rp.receipt_id >> 32
    WHERE r.status IN (0, 21006) AND (r.bundle_id IS NOT NULL OR r.app_item_id IS NOT NULL)
      AND ($2::boolean OR r.id = ANY (ARRAY(
          SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt')))
),
listed AS (
    SELECT c.receipt_id, c.bundle_id, p.transaction_id, p.product_id
    FROM copy_scope c
    JOIN purchase p ON p.environment = c.environment AND p.transaction_id = c.transaction_id
),
-- Products listed by a receipt that the catalog knows under another app only.
wrong_product AS (
    SELECT l.receipt_id,
           jsonb_agg(DISTINCT jsonb_build_object('transaction_id', l.transaction_id, 'product_id', l.product_id,
                                                  'catalog_bundle_id', other.bundle_id)) AS products
    FROM listed l
    JOIN product other ON other.product_id = l.product_id AND other.bundle_id IS DISTINCT FROM l.bundle_id
    WHERE NOT EXISTS (SELECT 1 FROM product own WHERE own.bundle_id = l.bundle_id AND own.product_id = l.product_id)
    GROUP BY l.receipt_id
),
checked AS (
    SELECT r.id, r.file_id, r.line, r.account_key, r.status, r.bundle_id, r.app_item_id, r.recorded_at,
           a.bundle_id IS NOT NULL AS bundle_in_catalog,
           a.apple_id AS catalog_apple_id,
           ai.bundle_id AS app_item_bundle_id,
           w.products AS wrong_products,
           (r.bundle_id IS NOT NULL AND a.bundle_id IS NULL) AS unknown_bundle,
           (r.app_item_id IS NOT NULL AND r.app_item_id <> '0' AND (
               (a.apple_id IS NOT NULL AND a.apple_id <> r.app_item_id)
               OR (r.bundle_id IS NULL AND ai.bundle_id IS NULL
                   AND EXISTS (SELECT 1 FROM app x WHERE x.apple_id IS NOT NULL)))) AS wrong_app_item
    FROM decoded r
    LEFT JOIN app a ON a.bundle_id = r.bundle_id
    LEFT JOIN app ai ON ai.apple_id = r.app_item_id
    LEFT JOIN wrong_product w ON w.receipt_id = r.id
)
SELECT 'receipt' AS subject_kind, c.id::text AS subject_key, 'high' AS severity, c.recorded_at AS window_start,
       c.recorded_at AS window_end,
       ((c.unknown_bundle)::int + (c.wrong_app_item)::int + (c.wrong_products IS NOT NULL)::int)::numeric AS score,
       jsonb_build_object(
           'receipt_id', c.id, 'file', f.path, 'line', c.line, 'account_key', c.account_key, 'status', c.status,
           'bundle_id', c.bundle_id, 'app_item_id', c.app_item_id, 'bundle_in_catalog', c.bundle_in_catalog,
           'catalog_apple_id', c.catalog_apple_id, 'app_item_id_names', c.app_item_bundle_id,
           'products_of_another_app', c.wrong_products,
           'note', CASE WHEN c.unknown_bundle
                        THEN 'bundle id not in the catalog: if this app is ours, add it to the catalog'
                        WHEN c.wrong_app_item THEN 'app item id does not match the catalog''s app'
                        ELSE 'lists products the catalog has under another app' END
       ) AS evidence
FROM checked c
CROSS JOIN s
LEFT JOIN input_file f ON f.id = c.file_id
WHERE c.unknown_bundle OR c.wrong_app_item OR c.wrong_products IS NOT NULL
