-- title: Notification completeness
-- description: The App Store Server Notifications Apple sent (its notification history, fetched by iap-audit fetch)
--   against those our servers recorded, per day and notification type: how many Apple sent, how many our servers
--   never recorded (a customer who paid and was not served, a refund never seen), and how many Apple itself failed
--   to deliver, with its failed attempts. A notification counts once however many pages or copies hold it; its
--   transactions are in the archive and audited like the rest. Empty until notification history is fetched.
-- param: window days = null -- only the last N days, by the day Apple signed the notification, ending on the newest such day; null or 0: all (run passes output.window)
-- sensitive: false

WITH copies AS (
    -- Every verified copy of a notification: from a history page (Apple's word: notificationHistory[i]) or not (a
    -- V2 body or envelope our servers recorded).
    SELECT o.notification_uuid, o.notification_type, o.signed_date, o.receipt_id,
           substring(o.path FROM '^notificationHistory\[(\d+)\]')::integer AS history_index
    FROM signed_object o
    WHERE o.kind = 'notification' AND o.outcome = 'verified' AND o.notification_uuid IS NOT NULL
),
sent AS (
    SELECT c.notification_uuid,
           min(c.notification_type) AS notification_type,
           min(c.signed_date) AS signed_date,
           bool_or(c.history_index IS NULL) AS recorded_by_servers
    FROM copies c
    GROUP BY c.notification_uuid
    HAVING bool_or(c.history_index IS NOT NULL)
),
attempts AS (
    -- Apple's delivery attempts, as the history page says them (the latest page holding the notification).
    SELECT DISTINCT ON (c.notification_uuid) c.notification_uuid,
           coalesce((r.raw::jsonb -> 'notificationHistory' -> c.history_index -> 'sendAttempts'), '[]'::jsonb) AS list
    FROM copies c
    JOIN receipt r ON r.id = c.receipt_id
    WHERE c.history_index IS NOT NULL
    ORDER BY c.notification_uuid, r.id DESC
),
judged AS (
    SELECT s.notification_uuid, s.notification_type, (s.signed_date AT TIME ZONE 'UTC')::date AS day,
           s.recorded_by_servers,
           EXISTS (SELECT 1 FROM jsonb_array_elements(a.list) e WHERE e ->> 'sendAttemptResult' = 'SUCCESS')
               AS delivered,
           (SELECT count(*) FROM jsonb_array_elements(a.list) e WHERE e ->> 'sendAttemptResult' <> 'SUCCESS')
               AS failed_attempts
    FROM sent s
    LEFT JOIN attempts a USING (notification_uuid)
)
SELECT to_char(j.day, 'YYYY-MM-DD') AS day,
       coalesce(j.notification_type, '?') AS notification_type,
       count(*) AS sent_by_apple,
       count(*) FILTER (WHERE NOT j.recorded_by_servers) AS never_recorded,
       count(*) FILTER (WHERE NOT j.delivered) AS apple_never_delivered,
       sum(j.failed_attempts) AS failed_attempts,
       string_agg(j.notification_uuid, ' ' ORDER BY j.notification_uuid)
           FILTER (WHERE NOT j.recorded_by_servers) AS never_recorded_uuids
FROM judged j
WHERE coalesce($1::integer, 0) <= 0
   OR j.day > (SELECT max(x.day) FROM judged x) - $1::integer
GROUP BY j.day, j.notification_type
ORDER BY j.day DESC, notification_type
