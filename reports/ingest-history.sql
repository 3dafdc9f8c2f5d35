-- title: Ingest history
-- description: Every input file loaded, newest first: when, by which run, and how many records were stored or
--   quarantined. Answers: did yesterday's files arrive, and did they load cleanly?
-- param: since date = 1970-01-01 -- only files loaded on or after this day (UTC)
-- param: window days = null -- only the last N days of history, by the day a file was loaded, ending on the newest load's; null or 0: all (run passes output.window)
-- sensitive: false

SELECT f.id AS file_id,
       f.path AS file,
       f.kind,
       f.compression,
       f.size_bytes,
       to_char(f.ingested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS ingested_at_utc,
       f.run_id,
       f.records_read,
       f.records_stored,
       f.records_quarantined,
       f.transaction_entries,
       encode(f.sha256, 'hex') AS sha256
FROM input_file f
WHERE f.ingested_at >= $1::date
  AND (coalesce($2::integer, 0) <= 0
       OR f.ingested_at > (SELECT max(n.ingested_at) FROM input_file n) - make_interval(days => $2::integer))
ORDER BY f.ingested_at DESC, f.id DESC
