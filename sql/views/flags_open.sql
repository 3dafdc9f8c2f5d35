-- readers: iap_audit_analyst
CREATE OR REPLACE VIEW flags_open AS
SELECT f.id, f.rule, f.rule_version, f.severity, f.subject_kind, f.subject_key, f.window_start, f.window_end,
       f.score, f.evidence, f.created_at, f.updated_at, f.first_run_id, f.last_run_id
FROM flag f
WHERE f.status = 'open';
COMMENT ON VIEW flags_open IS 'Open flags with their evidence.';
