-- title: Signature verification
-- description: StoreKit 2 signed data (docs/inputs.md, "StoreKit 2 signed data"): for each file, how many signed
--   objects (JWS) had each verification outcome, then every one that did not verify, with its line, its place in
--   the record and what it claims. Answers: is what we recorded really signed by Apple, and where is what is not?
--   Records that did not verify never count as purchases; detect flags them (forged-signature).
-- param: since date = 1970-01-01 -- only files loaded on or after this day (UTC)
-- param: window days = null -- only the last N days of history, by the day a file was loaded, ending on the newest load's; null or 0: all (run passes output.window)
-- sensitive: false

WITH objects AS (
    SELECT f.path AS file, f.id AS file_id, r.line, o.ordinal, o.path, o.kind, o.outcome, o.environment,
           o.transaction_id, o.signed_date
    FROM signed_object o
    JOIN receipt r ON r.id = o.receipt_id
    JOIN input_file f ON f.id = r.file_id
    WHERE f.ingested_at >= $1::date
      AND (coalesce($2::integer, 0) <= 0
           OR f.ingested_at > (SELECT max(n.ingested_at) FROM input_file n) - make_interval(days => $2::integer))
)
SELECT file, 'total' AS row_kind, outcome, count(*) AS signed_objects, NULL::integer AS line, NULL AS place,
       NULL AS kind, NULL AS environment, NULL AS transaction_id, NULL AS signed_at_utc
FROM objects
GROUP BY file, file_id, outcome
UNION ALL
SELECT file, 'record', outcome, 1, line, coalesce(nullif(path, ''), '(the line)'), kind, environment, transaction_id,
       to_char(signed_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
FROM objects
WHERE outcome <> 'verified'
ORDER BY file, row_kind DESC, outcome, line, place
