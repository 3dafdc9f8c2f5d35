-- The unfinished notification windows of one stream, oldest first, with the page to resume at (next_token,
-- pages). $1, $2, $3: the stream (bundle id, environment, only failures); $4: Apple's limit, in milliseconds
-- since 1970 (older windows were given up).
SELECT (extract(epoch FROM window_start) * 1000)::bigint AS start_ms,
       (extract(epoch FROM window_end) * 1000)::bigint AS end_ms, next_token, pages
FROM apple_notification_window
WHERE bundle_id = $1 AND environment = $2 AND only_failures = $3::boolean AND NOT complete
  AND window_start >= to_timestamp($4::bigint / 1000.0)
ORDER BY window_start
