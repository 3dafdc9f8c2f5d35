-- The active product ids of each app, sorted, as a JSON array: what `catalog export` writes as
-- products_v1.json. $1: one app's bundle id, or null for every app.
SELECT a.bundle_id, coalesce(array_to_json(array_agg(p.product_id ORDER BY p.product_id)
           FILTER (WHERE p.product_id IS NOT NULL))::text, '[]') AS product_ids
FROM app a LEFT JOIN product p ON p.bundle_id = a.bundle_id AND NOT p.is_retired
WHERE $1::text IS NULL OR a.bundle_id = $1
GROUP BY a.bundle_id ORDER BY a.bundle_id
