-- rule: invalid-receipts
-- version: 1
-- setting: window_hours integer = 24
-- setting: warning_receipts integer = 3
-- setting: high_receipts integer = 5
-- setting: counted_statuses integer[] = [21002, 21003, 21010]
-- setting: info_statuses integer[] = [21003]
-- subject: app-account
-- description: >= warning_receipts receipts with a counted status (21002, 21003, 21010) within window_hours
--   (>= high_receipts: high); any info_statuses receipt (21003: not authentic) is at least info. Apple-side
--   errors (21005, 21009, 211xx) are never counted.
-- $1: the rule's settings (jsonb): window_hours, warning_receipts, high_receipts, counted_statuses, info_statuses.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT make_interval(hours => ($1::jsonb ->> 'window_hours')::int) AS window_length,
           ($1::jsonb ->> 'window_hours')::int AS window_hours,
           ($1::jsonb ->> 'warning_receipts')::int AS warning_at,
           ($1::jsonb ->> 'high_receipts')::int AS high_at,
           ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> 'counted_statuses')::int) AS counted,
           ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> 'info_statuses')::int) AS info
),
bad AS (
    SELECT r.account_key, r.id, r.status, r.recorded_at
    FROM receipt_summary r CROSS JOIN s
    WHERE r.account_key IS NOT NULL AND (r.status = ANY (s.counted) OR r.status = ANY (s.info))
      AND ($2::boolean OR r.account_key = ANY (ARRAY(
          SELECT subject_key FROM detect_pending WHERE subject_kind = 'app-account')))
),
candidate AS (
    SELECT b.account_key
    FROM bad b CROSS JOIN s
    WHERE b.recorded_at IS NOT NULL AND b.status = ANY (s.counted)
    GROUP BY b.account_key, s.warning_at
    HAVING count(*) >= s.warning_at
),
counted AS (
    SELECT b.* FROM bad b JOIN candidate USING (account_key) CROSS JOIN s
    WHERE b.recorded_at IS NOT NULL AND b.status = ANY (s.counted)
),
windowed AS (
    SELECT DISTINCT ON (e.account_key) e.account_key, e.recorded_at AS window_end,
           min(c.recorded_at) AS window_start, count(*) AS receipts
    FROM (SELECT DISTINCT account_key, recorded_at FROM counted) e
    CROSS JOIN s
    JOIN counted c ON c.account_key = e.account_key
        AND c.recorded_at > e.recorded_at - s.window_length AND c.recorded_at <= e.recorded_at
    GROUP BY e.account_key, e.recorded_at
    ORDER BY e.account_key, count(*) DESC, e.recorded_at
),
info AS (
    SELECT b.account_key, min(b.recorded_at) AS window_start, max(b.recorded_at) AS window_end, count(*) AS receipts
    FROM bad b CROSS JOIN s
    WHERE b.status = ANY (s.info)
    GROUP BY b.account_key
),
fired AS (
    SELECT coalesce(w.account_key, i.account_key) AS account_key,
           CASE WHEN w.receipts >= s.high_at THEN 'high'
                WHEN w.receipts >= s.warning_at THEN 'warning'
                ELSE 'info' END AS severity,
           CASE WHEN w.receipts >= s.warning_at THEN w.window_start ELSE i.window_start END AS window_start,
           CASE WHEN w.receipts >= s.warning_at THEN w.window_end ELSE i.window_end END AS window_end,
           coalesce(w.receipts, 0) AS in_window,
           coalesce(i.receipts, 0) AS info_receipts
    FROM windowed w
    FULL JOIN info i ON i.account_key = w.account_key
    CROSS JOIN s
    WHERE w.receipts >= s.warning_at OR i.receipts > 0
)
SELECT 'app-account' AS subject_kind, f.account_key AS subject_key, f.severity, f.window_start, f.window_end,
       greatest(f.in_window, f.info_receipts)::numeric AS score,
       jsonb_build_object(
           'window_hours', s.window_hours,
           'receipts_in_window', f.in_window,
           'not_authentic_receipts', f.info_receipts,
           'receipts', (
               SELECT jsonb_agg(jsonb_build_object('receipt_id', b.id, 'status', b.status,
                                                   'recorded_at', b.recorded_at) ORDER BY b.recorded_at, b.id)
               FROM bad b
               WHERE b.account_key = f.account_key
                 AND ((b.recorded_at >= f.window_start AND b.recorded_at <= f.window_end AND b.status = ANY (s.counted))
                      OR b.status = ANY (s.info)))
       ) AS evidence
FROM fired f
CROSS JOIN s
