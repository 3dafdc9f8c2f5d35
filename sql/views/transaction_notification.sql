-- readers: iap_audit_analyst
-- The V2 notifications Apple sent about a transaction, once each by notificationUUID, verified only, with the
-- transaction the notification carries (its data.signedTransactionInfo, a signed object of the same record).
CREATE OR REPLACE VIEW transaction_notification AS
SELECT DISTINCT ON (n.notification_uuid)
    n.notification_uuid, n.notification_type, n.notification_subtype, n.signed_date, n.environment,
    t.transaction_id, t.original_transaction_id, t.product_id, n.bundle_id, n.receipt_id
FROM signed_object n
JOIN signed_object t ON t.receipt_id = n.receipt_id AND t.kind = 'transaction' AND t.outcome = 'verified'
    AND t.path = CASE WHEN n.path = '' THEN 'payload' ELSE n.path || '.payload' END || '.data.signedTransactionInfo'
WHERE n.kind = 'notification' AND n.outcome = 'verified' AND n.notification_uuid IS NOT NULL
ORDER BY n.notification_uuid, n.receipt_id, n.ordinal;
