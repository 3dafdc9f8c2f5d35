-- The open flags on one subject, for its page on the report site. $1 subject kind, $2 subject key.
SELECT f.id, f.rule, f.severity, f.score::text,
       to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_start_utc,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_end_utc,
       f.evidence::text
FROM flags_open f
WHERE f.subject_kind = $1 AND f.subject_key = $2
ORDER BY f.rule
