-- The open flags on the subjects of a batch of report-site pages. $1 subject kinds and $2 subject keys, as parallel
-- arrays; each flag comes with its subject, the subjects' flags one after another, and its id (a page links to the
-- flag's own page).
SELECT f.subject_kind, f.subject_key, f.rule, f.severity, f.score::text,
       to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_start_utc,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_end_utc,
       f.evidence::text,
       f.id::text AS flag_id
FROM flags_open f
JOIN unnest($1::text[], $2::text[]) AS s (kind, key) ON f.subject_kind = s.kind AND f.subject_key = s.key
ORDER BY f.subject_kind, f.subject_key, f.rule, f.window_start, f.id
