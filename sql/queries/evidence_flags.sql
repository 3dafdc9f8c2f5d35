-- An evidence bundle's flags (docs/evidence.md): every flag on the subject, whatever its status, with its evidence
-- and its whole decision log, oldest decision first. $1 subject kind (NULL: any kind), $2 subject key. Each row is the
-- flag's id, its evidence as text (the exporter reads the records it cites from it) and the flag as one JSON object.
SELECT f.id, f.evidence::text AS evidence,
       jsonb_build_object(
           'id', f.id, 'rule', f.rule, 'rule_version', f.rule_version, 'severity', f.severity,
           'subject_kind', f.subject_kind, 'subject_key', f.subject_key, 'status', f.status, 'score', f.score,
           'window_start', f.window_start AT TIME ZONE 'UTC', 'window_end', f.window_end AT TIME ZONE 'UTC',
           'created_at', f.created_at AT TIME ZONE 'UTC', 'updated_at', f.updated_at AT TIME ZONE 'UTC',
           'first_run_id', f.first_run_id, 'last_run_id', f.last_run_id, 'evidence', f.evidence,
           'decisions', coalesce((
               SELECT jsonb_agg(jsonb_build_object(
                          'id', d.id, 'action', d.action, 'reason', d.reason, 'note', d.note, 'actor', d.actor,
                          'database_user', d.database_user, 'decided_at', d.decided_at AT TIME ZONE 'UTC',
                          'rule_version', d.rule_version, 'finding_sha256', d.finding_sha256,
                          'status_after', d.status_after, 'run_id', d.run_id) ORDER BY d.id)
               FROM flag_decision d WHERE d.flag_id = f.id), '[]'::jsonb)
       )::text AS flag
FROM flag f
WHERE ($1::text IS NULL OR f.subject_kind = $1) AND f.subject_key = $2
ORDER BY f.id
