-- The session holding an advisory lock in this database: its server pid, application, client and since when it is
-- connected. $1: the lock's key. pg_locks splits a bigint key into classid (high 32 bits) and objid (low 32 bits);
-- advisory locks are per database, and pg_locks shows every database's.
SELECT a.pid, nullif(a.application_name, '') AS application,
       coalesce(a.client_hostname, host(a.client_addr), 'local socket') AS client,
       to_char(a.backend_start, 'YYYY-MM-DD HH24:MI:SS TZ') AS since
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid = (($1::bigint >> 32) & 4294967295)::bigint::oid
  AND l.objid = ($1::bigint & 4294967295)::bigint::oid AND l.objsubid = 1
LIMIT 1
