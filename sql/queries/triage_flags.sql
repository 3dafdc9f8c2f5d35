-- The flags `iap-audit flags list` shows, from the flag_triage view: most severe first, then
-- oldest first, each with when it was first raised (UTC) and how many whole days ago, and its latest decision. A null
-- filter selects every flag. $1: the rule; $2: the severity; $3: the status; $4: first raised at least this many days
-- ago; $5: first raised less than this many days ago; $6: the subject key; $7: the most flags to return (null: all);
-- $8: one flag's id (`flags show`).
SELECT t.id, t.rule, t.rule_version, t.severity, t.subject_kind, t.subject_key, t.status,
       round(t.score, 2)::text AS score,
       to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS created_at,
       floor(extract(epoch FROM now() - t.created_at) / 86400)::integer AS age_days, t.last_action, t.last_actor
FROM flag_triage t
WHERE ($1::text IS NULL OR t.rule = $1) AND ($2::text IS NULL OR t.severity = $2)
  AND ($3::text IS NULL OR t.status = $3)
  AND ($4::integer IS NULL OR t.created_at <= now() - make_interval(days => $4::integer))
  AND ($5::integer IS NULL OR t.created_at > now() - make_interval(days => $5::integer))
  AND ($6::text IS NULL OR t.subject_key = $6) AND ($8::bigint IS NULL OR t.id = $8::bigint)
ORDER BY CASE t.severity WHEN 'high' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END, t.created_at, t.id
LIMIT $7::bigint
