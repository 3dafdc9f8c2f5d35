-- The lines this reconcile wrote, by status: how many, and the units recorded and reported.
SELECT status, count(*) AS lines, coalesce(sum(recorded_units), 0) AS recorded_units,
       coalesce(sum(reported_units), 0) AS reported_units
FROM reconciliation_line l
-- Every line in a window was written by this run: the run's lines first, then the windows' test, which
-- over every line of the history grew with it.
WHERE l.run_id IS NOT DISTINCT FROM (SELECT run_id FROM rc_setting)
  AND EXISTS (SELECT 1 FROM rc_window w WHERE l.period_begin <= w.last_day AND l.period_end >= w.first_day)
GROUP BY status
