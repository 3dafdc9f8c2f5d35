-- What `iap-audit flags show` prints of a flag beside its line of triage_flags.sql: its window and when it last
-- changed (UTC), and its evidence as indented JSON. $1: the flag's id.
SELECT to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS window_start,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS window_end,
       to_char(f.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS updated_at,
       jsonb_pretty(f.evidence) AS evidence
FROM flag f
WHERE f.id = $1
