-- readers: iap_audit_analyst
-- Each flag with its triage (sql/0031_flag_triage.sql): the status, the latest decision and how many there were.
CREATE OR REPLACE VIEW flag_triage AS
SELECT f.id, f.rule, f.rule_version, f.severity, f.subject_kind, f.subject_key, f.window_start, f.window_end,
       f.score, f.status, f.created_at, f.updated_at, d.decisions, d.last_action, d.last_reason, d.last_actor,
       d.last_decided_at
FROM flag f
LEFT JOIN (
    SELECT DISTINCT ON (flag_id) flag_id, count(*) OVER (PARTITION BY flag_id) AS decisions,
           action AS last_action, reason AS last_reason, actor AS last_actor, decided_at AS last_decided_at
    FROM flag_decision
    ORDER BY flag_id, id DESC
) d ON d.flag_id = f.id;
COMMENT ON VIEW flag_triage IS 'Every flag with its status and latest triage decision.';
