-- readers: iap_audit_analyst
-- The refund requests among a transaction's notifications: CONSUMPTION_REQUEST (a customer asked; Apple waits 12
-- hours for consumption information), REFUND (granted), REFUND_DECLINED, REFUND_REVERSED.
CREATE OR REPLACE VIEW refund_notification AS
SELECT *
FROM transaction_notification
WHERE notification_type IN ('CONSUMPTION_REQUEST', 'REFUND', 'REFUND_DECLINED', 'REFUND_REVERSED');
