-- The run a report site describes (docs/reports.md): $1 its id, or NULL for the latest recorded `run`. Then the runs
-- before it come from site_runs.sql. The counts are read once the run is chosen, not per row: Citus runs no
-- correlated subquery beside a reference table (docs/scale.md).
WITH chosen AS (
    SELECT r.*
    FROM pipeline_run r
    WHERE ($1::bigint IS NULL AND r.command = 'run' AND r.outcome <> 'running') OR r.id = $1
    ORDER BY r.id DESC
    LIMIT 1
),
by_reason AS (
    SELECT coalesce(jsonb_object_agg(q.reason_code, q.records), '{}') AS counts
    FROM (
        SELECT reason_code, count(*) AS records FROM quarantine WHERE run_id = (SELECT id FROM chosen) GROUP BY 1
    ) q
),
-- What stands in the database, whatever this run did: an unchanged re-run quarantines nothing, yet the records
-- quarantined before are still there, and so are the lines that did not match.
all_by_reason AS (
    SELECT coalesce(jsonb_object_agg(q.reason_code, q.records), '{}') AS counts
    FROM (SELECT reason_code, count(*) AS records FROM quarantine GROUP BY 1) q
),
lines_by_status AS (
    SELECT coalesce(jsonb_object_agg(l.status, l.lines), '{}') AS counts
    FROM (SELECT status, count(*) AS lines FROM reconciliation_line GROUP BY 1) l
),
by_rule AS (
    SELECT coalesce(jsonb_object_agg(f.rule, f.flags), '{}') AS counts
    FROM (SELECT rule, count(*) AS flags FROM flags_open GROUP BY 1) f
)
SELECT r.id, r.command, r.outcome, r.exit_code,
       to_char(r.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS started_utc,
       to_char(r.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS finished_utc,
       r.version, r.summary::text, q.counts::text AS quarantine_by_reason, f.counts::text AS open_flags_by_rule,
       aq.counts::text AS all_quarantine_by_reason, ls.counts::text AS all_lines_by_status
FROM chosen r
CROSS JOIN by_reason q
CROSS JOIN by_rule f
CROSS JOIN all_by_reason aq
CROSS JOIN lines_by_status ls
