-- Writes one rule's hits (temporary table detect_hit) as flags. $1 = rule id, $2 = rule version, $3 = run id, $4 =
-- the rule's settings (jsonb, as the rule read them): a flag records the settings it was last found with.
-- Unchanged hits touch nothing; a changed one updates its flag in place, with the time of the row it would have
-- inserted (the column's default, now()): Citus allows no function but immutable ones in ON CONFLICT DO UPDATE
-- (docs/scale.md). The status is the triage log's (sql/0031_flag_triage.sql): detect
-- then reopens, with a log row, a dismissed flag whose finding changed (flag_reopen_changed).
INSERT INTO flag AS f (rule, rule_version, severity, subject_kind, subject_key, window_start, window_end, score,
    evidence, first_run_id, last_run_id, settings)
SELECT DISTINCT ON (h.subject_kind, h.subject_key)
       $1, $2::integer, h.severity, h.subject_kind, h.subject_key, h.window_start, h.window_end, h.score, h.evidence,
       $3::bigint, $3::bigint, $4::jsonb
FROM detect_hit h
ORDER BY h.subject_kind, h.subject_key,
         CASE h.severity WHEN 'high' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, h.score DESC
ON CONFLICT (rule, subject_kind, subject_key) DO UPDATE
SET rule_version = excluded.rule_version,
    severity = excluded.severity,
    window_start = excluded.window_start,
    window_end = excluded.window_end,
    score = excluded.score,
    evidence = excluded.evidence,
    last_run_id = excluded.last_run_id,
    updated_at = excluded.updated_at,
    settings = excluded.settings
WHERE (f.rule_version, f.severity, f.window_start, f.window_end, f.score, f.evidence, f.settings)
      IS DISTINCT FROM (excluded.rule_version, excluded.severity, excluded.window_start, excluded.window_end,
                        excluded.score, excluded.evidence, excluded.settings)
RETURNING (xmax = 0) AS inserted;
