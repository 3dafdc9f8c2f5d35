-- Records a notification window before it is asked for, so an interrupted fetch resumes it (a window already
-- recorded is left as it is). $1, $2, $3: the stream (bundle id, environment, only failures); $4, $5: the
-- window's start and end, in milliseconds since 1970; $6: the run.
INSERT INTO apple_notification_window
    (bundle_id, environment, only_failures, window_start, window_end, updated_at, run_id)
VALUES ($1, $2, $3::boolean, to_timestamp($4::bigint / 1000.0), to_timestamp($5::bigint / 1000.0), now(), $6)
ON CONFLICT DO NOTHING
