-- Records a run as it starts: $1 command, $2 settings (jsonb), $3 host, $4 process id, $5 version; the server
-- session (backend pid and start) too, so a later run can tell one killed before it recorded an end.
INSERT INTO pipeline_run (command, settings, host, pid, version, backend_pid, backend_start)
SELECT $1, $2::jsonb, $3, $4, $5, pid, backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid()
RETURNING id
