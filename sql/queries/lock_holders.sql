-- The sessions holding locks in this database, oldest transaction first (three at the most): who a statement
-- whose lock wait ran out waited for. No parameters.
SELECT a.pid, a.usename AS user_name, nullif(a.application_name, '') AS application, a.state,
       to_char(a.xact_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS since
FROM pg_stat_activity a
WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL
  AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted AND l.locktype = 'relation')
ORDER BY a.xact_start LIMIT 3
