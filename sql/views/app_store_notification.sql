-- readers: iap_audit_analyst
-- A notification is one notification however many times it arrived (a V2 body, then a notification-history page):
-- the first verified copy by notificationUUID.
CREATE OR REPLACE VIEW app_store_notification AS
SELECT DISTINCT ON (notification_uuid)
    notification_uuid, notification_type, notification_subtype, signed_date, environment, bundle_id,
    receipt_id AS first_receipt_id
FROM signed_object
WHERE kind = 'notification' AND outcome = 'verified' AND notification_uuid IS NOT NULL
ORDER BY notification_uuid, receipt_id, ordinal;
