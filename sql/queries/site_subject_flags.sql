-- The flags on the subjects of a batch of report-site pages: open, confirmed and dismissed (superseded ones belong to
-- a merged store account, whose own flag the page shows). $1 subject kinds and $2 subject keys, as parallel arrays;
-- each flag comes with its subject, the subjects' flags one after another, its status and its id (a page links to
-- the flag's own page).
SELECT f.subject_kind, f.subject_key, f.rule, f.severity, f.status, f.score::text,
       to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_start_utc,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_end_utc,
       f.evidence::text,
       f.id::text AS flag_id
FROM flag f
JOIN unnest($1::text[], $2::text[]) AS s (kind, key) ON f.subject_kind = s.kind AND f.subject_key = s.key
WHERE f.status IN ('open', 'confirmed', 'dismissed')
ORDER BY f.subject_kind, f.subject_key, CASE f.status WHEN 'open' THEN 0 ELSE 1 END, f.rule, f.window_start, f.id
