-- A flag's decision log (flag_decision, sql/0031_flag_triage.sql), oldest first, as `iap-audit flags show` prints
-- it. $1: the flag's id.
SELECT d.id, d.flag_id, d.action, d.reason, d.note, d.actor, d.database_user,
       to_char(d.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS decided_at, d.rule_version,
       d.status_after
FROM flag_decision d
WHERE d.flag_id = $1
ORDER BY d.id
