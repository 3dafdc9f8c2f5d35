-- readers: iap_audit_analyst
-- A transaction's history, one row per change, in the order Apple signed them: refunded, reversed (a refund taken
-- back), revoked (a family-shared copy taken back) and restored, upgraded (from its copies); and from Apple's
-- notifications about it: refund-requested, refund-declined, renewal-off and renewal-on (DID_CHANGE_RENEWAL_STATUS),
-- expired (EXPIRED). "refunded 03-05, reversed 03-12" on the transaction's page.
CREATE OR REPLACE VIEW purchase_state_change AS
WITH observed AS (
    SELECT s.*,
        -- verifyReceipt dates an upgrade with a cancellation_date: an upgrade is no refund.
        s.cancellation_date IS NOT NULL AND NOT s.is_upgraded AS is_refunded,
        s.revocation_date IS NOT NULL AND s.cancellation_date IS NULL AS is_revoked,
        lag(s.cancellation_date IS NOT NULL AND NOT s.is_upgraded) OVER w AS was_refunded,
        lag(s.revocation_date IS NOT NULL AND s.cancellation_date IS NULL) OVER w AS was_revoked,
        bool_or(s.is_upgraded) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS was_upgraded
    FROM purchase_state s
    WINDOW w AS (PARTITION BY s.environment, s.transaction_id ORDER BY s.signed_at NULLS FIRST, s.receipt_id)
)
SELECT environment, transaction_id, change, signed_at, receipt_id
FROM observed
CROSS JOIN LATERAL (VALUES
    (CASE WHEN is_refunded AND NOT coalesce(was_refunded, false) THEN 'refunded'
          WHEN NOT is_refunded AND was_refunded THEN 'reversed' END),
    (CASE WHEN is_revoked AND NOT coalesce(was_revoked, false) THEN 'revoked'
          WHEN NOT is_revoked AND was_revoked THEN 'restored' END),
    (CASE WHEN is_upgraded AND NOT coalesce(was_upgraded, false) THEN 'upgraded' END)
) c (change)
WHERE c.change IS NOT NULL
UNION ALL
SELECT environment, transaction_id, change, signed_date, receipt_id
FROM (
    SELECT n.*,
        CASE WHEN n.notification_type = 'CONSUMPTION_REQUEST' THEN 'refund-requested'
             WHEN n.notification_type = 'REFUND_DECLINED' THEN 'refund-declined'
             WHEN n.notification_type = 'EXPIRED' THEN 'expired'
             WHEN n.notification_type = 'DID_CHANGE_RENEWAL_STATUS' AND n.notification_subtype = 'AUTO_RENEW_DISABLED'
                 THEN 'renewal-off'
             WHEN n.notification_type = 'DID_CHANGE_RENEWAL_STATUS' AND n.notification_subtype = 'AUTO_RENEW_ENABLED'
                 THEN 'renewal-on' END AS change
    FROM transaction_notification n
    WHERE n.environment IN ('Production', 'Sandbox')
      AND n.notification_type IN ('CONSUMPTION_REQUEST', 'REFUND_DECLINED', 'EXPIRED', 'DID_CHANGE_RENEWAL_STATUS')
) n
WHERE change IS NOT NULL;
COMMENT ON VIEW purchase_state_change IS 'Every change of a transaction''s state, with when Apple signed it and the '
    'record that said so: refunded, reversed, revoked, restored, upgraded, refund-requested, refund-declined, '
    'renewal-off, renewal-on, expired.';

