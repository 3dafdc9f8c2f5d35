-- The runs before the one a report site describes: $1 its id (NULL: every run), newest first, at most 30.
SELECT r.id, r.command, r.outcome, r.exit_code,
       to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS started_utc,
       round(extract(epoch FROM r.finished_at - r.started_at)::numeric, 1)::text AS seconds,
       (r.summary -> 'receipts' ->> 'records') AS receipt_records,
       (r.summary -> 'receipts' ->> 'quarantined') AS quarantined
FROM pipeline_run r
WHERE $1::bigint IS NULL OR r.id < $1
ORDER BY r.id DESC
LIMIT 30
