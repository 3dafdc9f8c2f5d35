-- title: Open consumption requests
-- description: Refund requests Apple is waiting on (App Store Server Notifications V2 CONSUMPTION_REQUEST, verified,
--   production) that no REFUND or REFUND_DECLINED has answered yet, with Apple's deadline (12 hours after the request)
--   and, for each, the body of Apple's ConsumptionRequest (Send Consumption Information, App Store Server API)
--   computed from the archive, for a person to review before it is sent. Fields the archive cannot know are left out
--   of the body and named in to_decide (customerConsented, consumptionStatus, playTime, sampleContentProvided,
--   userStatus, refundPreference; lifetime amounts when a purchase of the account has no USD price). The accounts'
--   histories are as of the last detect (account_purchase). docs/fraud-rules.md ("Refund requests") says how each
--   field is derived.
-- param: window days = null -- only the last N days of requests, by request date, ending on the newest request's; null or 0: all (run passes output.window)
-- sensitive: true

WITH request AS (
    SELECT q.*
    FROM refund_notification q
    WHERE q.notification_type = 'CONSUMPTION_REQUEST' AND q.environment = 'Production' AND q.signed_date IS NOT NULL
      AND NOT EXISTS (
          SELECT 1 FROM refund_notification a
          WHERE a.transaction_id = q.transaction_id AND a.environment = q.environment
            AND a.notification_type IN ('REFUND', 'REFUND_DECLINED') AND a.signed_date >= q.signed_date)
      AND (coalesce($1::integer, 0) <= 0
           OR q.signed_date > (SELECT max(n.signed_date) FROM refund_notification n
                               WHERE n.notification_type = 'CONSUMPTION_REQUEST') - make_interval(days => $1::integer))
),
-- The transaction asked about, and the app account whose recorded receipts list it.
subject AS (
    SELECT q.*, p.app_account_token, p.cancellation_date, ap.account_key, ap.first_posted_at
    FROM request q
    JOIN purchase p ON p.environment = 'Production' AND p.transaction_id = q.transaction_id
    LEFT JOIN LATERAL (
        SELECT a.account_key, a.first_posted_at FROM account_purchase a
        WHERE a.transaction_id = q.transaction_id ORDER BY a.first_posted_at LIMIT 1
    ) ap ON true
    WHERE p.cancellation_date IS NULL OR p.cancellation_date < q.signed_date
),
-- The account's whole App Store history as recorded: since when, and how much it bought and had refunded, in USD.
account AS (
    SELECT s.notification_uuid, min(a.first_posted_at) AS since, count(a.purchase_id) AS purchases,
           bool_and(p.currency = 'USD' AND p.price IS NOT NULL) AS all_priced,
           sum(p.price * p.quantity) FILTER (WHERE p.currency = 'USD') / 1000.0 AS purchased_usd,
           coalesce(sum(p.price * p.quantity) FILTER (
               WHERE p.currency = 'USD' AND p.cancellation_date IS NOT NULL), 0) / 1000.0 AS refunded_usd
    FROM subject s
    JOIN account_purchase a ON a.account_key = s.account_key AND a.first_posted_at <= s.signed_date
    JOIN purchase p ON p.id = a.purchase_id
    GROUP BY s.notification_uuid
),
body AS (
    SELECT s.*, a.purchases,
           CASE WHEN a.since IS NULL THEN NULL
                WHEN s.signed_date - a.since < interval '3 days' THEN 1
                WHEN s.signed_date - a.since < interval '10 days' THEN 2
                WHEN s.signed_date - a.since < interval '30 days' THEN 3
                WHEN s.signed_date - a.since < interval '90 days' THEN 4
                WHEN s.signed_date - a.since < interval '180 days' THEN 5
                WHEN s.signed_date - a.since < interval '365 days' THEN 6
                ELSE 7 END AS account_tenure,
           CASE WHEN a.all_priced THEN a.purchased_usd END AS purchased_usd,
           CASE WHEN a.all_priced THEN a.refunded_usd END AS refunded_usd
    FROM subject s
    LEFT JOIN account a ON a.notification_uuid = s.notification_uuid
),
-- Apple's buckets for lifetimeDollarsPurchased and lifetimeDollarsRefunded (1: 0 USD … 7: 2000 USD and over).
bucketed AS (
    SELECT b.*,
           (SELECT CASE WHEN v IS NULL THEN NULL WHEN v = 0 THEN 1 WHEN v < 50 THEN 2 WHEN v < 100 THEN 3
                        WHEN v < 500 THEN 4 WHEN v < 1000 THEN 5 WHEN v < 2000 THEN 6 ELSE 7 END
            FROM (SELECT b.purchased_usd AS v) x) AS purchased_bucket,
           (SELECT CASE WHEN v IS NULL THEN NULL WHEN v = 0 THEN 1 WHEN v < 50 THEN 2 WHEN v < 100 THEN 3
                        WHEN v < 500 THEN 4 WHEN v < 1000 THEN 5 WHEN v < 2000 THEN 6 ELSE 7 END
            FROM (SELECT b.refunded_usd AS v) x) AS refunded_bucket
    FROM body b
)
-- What a reviewer reads first comes first: the deadline, the transaction, the body to send and what is left to
-- decide; the ids that place the request follow.
SELECT to_char((b.signed_date + interval '12 hours') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS deadline_utc,
       b.transaction_id, b.product_id,
       jsonb_strip_nulls(jsonb_build_object(
           'accountTenure', b.account_tenure,
           'appAccountToken', coalesce(b.app_account_token::text, ''),
           'deliveryStatus', CASE WHEN b.account_key IS NOT NULL THEN 0 END,
           'lifetimeDollarsPurchased', b.purchased_bucket,
           'lifetimeDollarsRefunded', b.refunded_bucket,
           'platform', 1
       )) AS request_body,
       array_to_string(ARRAY['customerConsented', 'consumptionStatus', 'playTime', 'sampleContentProvided',
                             'userStatus', 'refundPreference']
                       || CASE WHEN b.account_tenure IS NULL THEN ARRAY['accountTenure'] ELSE '{}' END
                       || CASE WHEN b.account_key IS NULL THEN ARRAY['deliveryStatus'] ELSE '{}' END
                       || CASE WHEN b.purchased_bucket IS NULL
                               THEN ARRAY['lifetimeDollarsPurchased', 'lifetimeDollarsRefunded'] ELSE '{}' END,
                       ', ') AS to_decide,
       to_char(b.signed_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS requested_utc,
       b.account_key, b.original_transaction_id, b.bundle_id, b.notification_uuid
FROM bucketed b
ORDER BY b.signed_date, b.transaction_id
