-- The run lock's holder, when it is a recorded run still running: its client's process id and host, and its
-- server session's. $1: the run lock's advisory key.
SELECT r.pid AS client_pid, r.host, l.pid AS backend_pid
FROM pg_locks l JOIN pipeline_run r ON r.backend_pid = l.pid AND r.outcome = 'running'
JOIN pg_stat_activity a ON a.pid = l.pid AND a.backend_start = r.backend_start
WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = (($1::bigint >> 32) & 4294967295)::bigint::oid
  AND l.objid = ($1::bigint & 4294967295)::bigint::oid AND l.objsubid = 1
ORDER BY r.id DESC LIMIT 1
