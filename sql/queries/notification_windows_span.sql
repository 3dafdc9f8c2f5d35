-- How far notification history of one stream was fetched: its first window's start and last window's end, in
-- milliseconds since 1970 (null when none). $1, $2, $3: the stream (bundle id, environment, only failures).
SELECT (extract(epoch FROM min(window_start)) * 1000)::bigint AS first_ms,
       (extract(epoch FROM max(window_end)) * 1000)::bigint AS last_ms
FROM apple_notification_window
WHERE bundle_id = $1 AND environment = $2 AND only_failures = $3::boolean
