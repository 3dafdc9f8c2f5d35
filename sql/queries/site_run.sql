-- The run a report site describes (docs/reports.md): $1 its id, or NULL for the latest recorded `run`. Then the runs
-- before it come from site_runs.sql.
SELECT r.id, r.command, r.outcome, r.exit_code,
       to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS started_utc,
       to_char(r.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS finished_utc,
       r.version, r.summary::text,
       (SELECT coalesce(jsonb_object_agg(q.reason_code, q.records), '{}')::text
        FROM (SELECT reason_code, count(*) AS records FROM quarantine WHERE run_id = r.id GROUP BY 1) q)
           AS quarantine_by_reason,
       (SELECT coalesce(jsonb_object_agg(f.rule, f.flags), '{}')::text
        FROM (SELECT rule, count(*) AS flags FROM flags_open GROUP BY 1) f) AS open_flags_by_rule
FROM pipeline_run r
WHERE ($1::bigint IS NULL AND r.command = 'run' AND r.outcome <> 'running') OR r.id = $1
ORDER BY r.id DESC
LIMIT 1
