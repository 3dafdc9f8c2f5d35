-- Marks the runs $1 (ids) abandoned, those still 'running' only: a run that ended in between keeps its outcome.
UPDATE pipeline_run SET outcome = 'abandoned', finished_at = now()
WHERE id = ANY ($1::bigint[]) AND outcome = 'running'
RETURNING id
