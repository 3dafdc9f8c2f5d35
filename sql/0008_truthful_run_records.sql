-- A run's row says what really happened. A process killed with SIGKILL cannot record its end: a later command marks
-- such a row 'abandoned' once the server session it ran in is gone (backend_pid and backend_start identify that
-- session, as the process id alone would not after a restart). The same columns let a new run recognise the run
-- lock held by the session of a client that no longer exists, and end that session instead of waiting for it.
ALTER TABLE pipeline_run
    ADD COLUMN backend_pid integer,
    ADD COLUMN backend_start timestamptz;
ALTER TABLE pipeline_run DROP CONSTRAINT pipeline_run_outcome_check;
ALTER TABLE pipeline_run ADD CONSTRAINT pipeline_run_outcome_check
    CHECK (outcome IN ('running', 'succeeded', 'failed', 'interrupted', 'rejected', 'abandoned'));
COMMENT ON COLUMN pipeline_run.backend_pid IS 'The server session the run used; with backend_start, tells a killed '
    'run (its session gone) from one still running.';
