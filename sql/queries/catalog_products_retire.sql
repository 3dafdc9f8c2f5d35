-- Retires the products of an app the catalog no longer lists. $1: the app's bundle id; $2: the product ids
-- it lists.
UPDATE product SET is_retired = true, updated_at = now()
WHERE bundle_id = $1 AND NOT is_retired AND NOT (product_id = ANY($2::text[]))
