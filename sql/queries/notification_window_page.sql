-- Records a notification window's page: the token of the next page (null: none), the pages and notifications
-- so far, whether the window is complete. $1, $2, $3: the stream (bundle id, environment, only failures);
-- $4: the window's start, in milliseconds since 1970; $5: the next token; $6: the page's number; $7: its
-- notifications; $8: whether more pages follow; $9: the run.
UPDATE apple_notification_window
SET next_token = $5, pages = $6, notifications = notifications + $7, complete = NOT $8::boolean,
    updated_at = now(), run_id = $9
WHERE bundle_id = $1 AND environment = $2 AND only_failures = $3::boolean
  AND window_start = to_timestamp($4::bigint / 1000.0)
