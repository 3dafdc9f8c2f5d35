-- Gives up the unfinished notification windows of one stream that start before Apple's limit: Apple no longer
-- keeps them, so asking would be refused. $1, $2, $3: the stream (bundle id, environment, only failures);
-- $4: the limit, in milliseconds since 1970.
UPDATE apple_notification_window SET complete = true, updated_at = now()
WHERE bundle_id = $1 AND environment = $2 AND only_failures = $3::boolean AND NOT complete
  AND window_start < to_timestamp($4::bigint / 1000.0)
