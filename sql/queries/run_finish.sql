-- Records how run $1 ended: $2 outcome, $3 exit code, $4 summary (jsonb).
UPDATE pipeline_run SET finished_at = now(), outcome = $2, exit_code = $3, summary = $4::jsonb
WHERE id = $1
