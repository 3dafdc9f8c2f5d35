-- Imports an app of the catalog; what a product-list import does not name (null) keeps what the full
-- catalog said. An update takes its time from the row it would have inserted (Citus allows no other function in
-- ON CONFLICT DO UPDATE, docs/scale.md). $1: the bundle id; $2: Apple's id; $3: the SKU; $4: the name.
INSERT INTO app (bundle_id, apple_id, sku, name) VALUES ($1, $2, $3, $4)
ON CONFLICT (bundle_id) DO UPDATE SET
    apple_id = coalesce(excluded.apple_id, app.apple_id), sku = coalesce(excluded.sku, app.sku),
    name = coalesce(excluded.name, app.name), updated_at = excluded.updated_at
