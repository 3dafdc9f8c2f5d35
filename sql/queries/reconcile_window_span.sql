-- The windows this reconcile covers (rc_window): first and last day, and the days in them.
SELECT min(first_day)::text AS first_day, max(last_day)::text AS last_day,
       coalesce(sum(last_day - first_day + 1), 0) AS days
FROM rc_window
