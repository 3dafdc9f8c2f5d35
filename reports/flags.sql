-- title: Open fraud flags
-- description: Every open flag, by the day of the last event it covers, severity and rule, with the evidence that
--   raised it (ids, counts, dates: enough to check by hand; a JSON object). The chart shows hits per rule per day,
--   the rules of high severity first.
-- param: rule text = null -- only this rule, e.g. many-store-accounts
-- param: severity text = null -- only this severity: info, warning or high
-- param: window days = null -- only the last N days of history, by the day column (the flag's window end), ending on the newest window end; a flag without one is always listed; null or 0: all (run passes output.window)
-- chart: bar x=day y=hits series=rule rank=severity_rank unit=flags
-- sensitive: false

SELECT to_char(coalesce(f.window_end, f.created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
       f.severity,
       f.rule,
       f.subject_kind,
       f.subject_key,
       round(f.score, 2) AS score,
       to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS window_start_utc,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS window_end_utc,
       1 AS hits,
       CASE f.severity WHEN 'high' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END AS severity_rank,
       f.id AS flag_id,
       f.rule_version,
       f.evidence
FROM flags_open f
WHERE ($1::text IS NULL OR f.rule = $1) AND ($2::text IS NULL OR f.severity = $2)
  AND (coalesce($3::integer, 0) <= 0 OR coalesce(f.window_end, f.created_at) > (
      SELECT coalesce(max(o.window_end), max(o.created_at)) FROM flags_open o) - make_interval(days => $3::integer))
ORDER BY day, severity_rank, f.rule, f.subject_key, f.id
