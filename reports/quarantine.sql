-- title: Quarantine
-- description: Every record that could not be read, with its file, line, reason code and message. Answers: what
--   did we fail to load, and why? Excerpts (usernames removed) stay in the quarantine table for operators.
-- param: since date = 1970-01-01 -- only records quarantined on or after this day (UTC)
-- param: reason text = null -- only this reason code, e.g. invalid-json
-- param: window days = null -- only the last N days of history, by the day a record was quarantined, ending on the newest quarantine's; null or 0: all (run passes output.window)
-- sensitive: true

SELECT q.reason_code,
       q.path AS file,
       q.line,
       q.record_number,
       q.message,
       q.run_id,
       to_char(q.quarantined_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS quarantined_at_utc
FROM quarantine q
WHERE q.quarantined_at >= $1::date AND ($2::text IS NULL OR q.reason_code = $2)
  AND (coalesce($3::integer, 0) <= 0
       OR q.quarantined_at > (SELECT max(n.quarantined_at) FROM quarantine n) - make_interval(days => $3::integer))
ORDER BY q.reason_code, q.path, q.line
