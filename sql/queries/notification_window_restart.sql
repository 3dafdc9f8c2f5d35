-- Starts a notification window again from its first page (Apple no longer takes its page token). $1, $2,
-- $3: the stream (bundle id, environment, only failures); $4: the window's start, in milliseconds since 1970.
UPDATE apple_notification_window SET next_token = NULL, pages = 0, updated_at = now()
WHERE bundle_id = $1 AND environment = $2 AND only_failures = $3::boolean
  AND window_start = to_timestamp($4::bigint / 1000.0)
