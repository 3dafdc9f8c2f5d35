-- The triage log (flag_decision, sql/0031_flag_triage.sql) of a batch of the report site's flags, each flag's
-- decisions oldest first: who (the analyst's name and the database login), when, what, why, and the status it left.
-- $1: the flags' ids, as text.
SELECT d.flag_id::text AS flag_id, d.action, d.reason, d.note, d.actor, d.database_user,
       to_char(d.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS decided_utc,
       d.rule_version::text AS rule_version, d.status_after
FROM flag_decision d
WHERE d.flag_id = ANY ($1::text[]::bigint[])
ORDER BY d.flag_id, d.id
