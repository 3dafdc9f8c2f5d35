-- Appends a decision to a flag's log through flag_decide (sql/0031_flag_triage.sql), which checks it and sets the
-- flag's status, and returns the row written. $1: the flag's id; $2: the action (confirm, dismiss, reopen, note);
-- $3: the reason code of a dismissal (else null); $4: the text; $5: who decides.
SELECT d.id, d.flag_id, d.action, d.reason, d.note, d.actor, d.database_user,
       to_char(d.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS decided_at, d.rule_version,
       d.status_after
FROM flag_decide($1, $2, $3, $4, $5) AS d
