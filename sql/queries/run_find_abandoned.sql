-- Runs still 'running' whose server session is gone: their process was killed before it could record an end. Rows
-- from before sessions were recorded count once a day has passed.
SELECT r.id FROM pipeline_run r
WHERE r.outcome = 'running'
  AND CASE WHEN r.backend_pid IS NULL THEN r.started_at < now() - interval '1 day'
           ELSE NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                            WHERE a.pid = r.backend_pid AND a.backend_start = r.backend_start) END
