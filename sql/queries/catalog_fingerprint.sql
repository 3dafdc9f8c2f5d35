-- What store-account clustering reads from the catalog: which apps count, and which products are ownable.
SELECT md5(
    coalesce((SELECT string_agg(bundle_id, ',' ORDER BY bundle_id COLLATE "C") FROM app), '') || '|' ||
    coalesce((SELECT string_agg(bundle_id || '/' || product_id || '/' || coalesce(type, ''), ','
                  ORDER BY bundle_id COLLATE "C", product_id COLLATE "C") FROM product), '')) AS fingerprint;
