-- The report site's flags (docs/reports.md): every flag an analyst has to see — open, confirmed or dismissed, not
-- superseded — with its subject as a reader knows it (an account hash, a store account, a transaction id, a receipt's
-- file and line) instead of the internal key alone, its status, when it was first raised and how many whole days ago
-- (the queue's age, as `flags list --older-than` counts it). $1: the window in days, as the flags report takes it (by
-- the flag's window end, ending on the newest open flag's window end; a flag without one is always listed); null or
-- 0: all. $2: one flag's id, or null for every flag (a page of one flag, served live: a superseded flag too, which
-- the console shows for its notes). The console's queue filters the same list (`FlagFilter`; a null filter selects
-- every flag): $3 the rule; $4 the severity; $5 the statuses (null: open, confirmed and dismissed); $6 first raised
-- at least this many days ago; $7 less than this many days ago; $8 the subject key; $9 the most flags (null: all).
SELECT f.id, f.rule, f.severity, f.status, f.subject_kind, f.subject_key,
       to_char(f.window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_start_utc,
       to_char(f.window_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS window_end_utc,
       round(f.score, 2)::text AS score, f.evidence::text,
       to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS raised_utc,
       floor(extract(epoch FROM now() - f.created_at) / 86400)::integer AS age_days,
       i.path AS receipt_file, r.line AS receipt_line, r.account_key AS receipt_account
FROM flag f
LEFT JOIN receipt r
    ON r.id = CASE WHEN f.subject_kind = 'receipt' AND f.subject_key ~ '^[0-9]{1,18}$' THEN f.subject_key::bigint END
LEFT JOIN input_file i ON i.id = r.file_id
WHERE (($2::bigint IS NULL AND f.status = ANY (coalesce($5::text[], ARRAY['open', 'confirmed', 'dismissed'])))
       OR f.id = $2::bigint)
  AND ($3::text IS NULL OR f.rule = $3) AND ($4::text IS NULL OR f.severity = $4)
  AND ($6::integer IS NULL OR f.created_at <= now() - make_interval(days => $6::integer))
  AND ($7::integer IS NULL OR f.created_at > now() - make_interval(days => $7::integer))
  AND ($8::text IS NULL OR f.subject_key = $8)
  AND (coalesce($1::integer, 0) <= 0 OR coalesce(f.window_end, f.created_at) > (
      SELECT coalesce(max(o.window_end), max(o.created_at)) FROM flags_open o) - make_interval(days => $1::integer))
ORDER BY CASE f.severity WHEN 'high' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, f.rule, f.subject_key, f.window_start, f.id
LIMIT $9::bigint
