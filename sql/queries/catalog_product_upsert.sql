-- Imports a product of the catalog, active again if it was retired; a type or name the import does not name
-- (null) keeps what was recorded. $1: the app's bundle id; $2: the product id; $3: its type; $4: its name.
INSERT INTO product (bundle_id, product_id, type, name) VALUES ($1, $2, $3, $4)
ON CONFLICT (bundle_id, product_id) DO UPDATE SET
    type = coalesce(excluded.type, product.type), name = coalesce(excluded.name, product.name),
    is_retired = false, updated_at = excluded.updated_at
