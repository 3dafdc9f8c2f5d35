-- The views whose text is not the one recorded, or that do not exist: the ones to create again. $1, $2: arrays
-- of every view's name and checksum.
SELECT v.name FROM unnest($1::text[], $2::text[]) AS v (name, checksum)
LEFT JOIN schema_view s ON s.name = v.name
WHERE s.checksum IS DISTINCT FROM v.checksum OR to_regclass(v.name) IS NULL
