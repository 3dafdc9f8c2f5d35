-- What reconciliation reads from the catalog: apps by bundle id, SKU and Apple ID, and products with their types.
-- When it changes, the stored lines may resolve differently, so the next incremental reconcile covers every day.
SELECT md5(
    coalesce((SELECT string_agg(bundle_id || '/' || coalesce(sku, '') || '/' || coalesce(apple_id, ''), ','
                  ORDER BY bundle_id COLLATE "C") FROM app), '') || '|' ||
    coalesce((SELECT string_agg(bundle_id || '/' || product_id || '/' || coalesce(type, ''), ','
                  ORDER BY bundle_id COLLATE "C", product_id COLLATE "C") FROM product), '')) AS fingerprint;
