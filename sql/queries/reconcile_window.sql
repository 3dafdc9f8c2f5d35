-- The one window of days a full or forced reconcile covers: $1 the first day, $2 the last (reconcile_changes.sql
-- makes this table for an incremental one, a window per run of changed days).
CREATE TEMPORARY TABLE rc_window ON COMMIT DROP AS
SELECT $1::date AS first_day, $2::date AS last_day
