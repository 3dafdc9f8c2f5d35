-- The tables among $1 (an array of names) whose statistics are stale: a tenth of their rows (at least 1,000)
-- changed since they were last analyzed.
SELECT relname FROM pg_stat_user_tables
WHERE schemaname = current_schema() AND relname = ANY ($1::text[])
  AND n_mod_since_analyze > 0.1 * greatest(n_live_tup, 1000)
ORDER BY relname
