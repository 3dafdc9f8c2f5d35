-- What Apple says last is what stands (docs/decisions.md, "Transaction state"): a refund Apple reverses stops being a
-- refund, a late file carrying an older copy undoes nothing, and every change of a transaction's state is kept.
--
-- purchase_state: the copies that say something about a transaction's state, each with the instant Apple said it
-- (signed_at: a signed copy's signedDate; a verifyReceipt copy's request date, else its receipt's creation date,
-- else when our server recorded it, else the refund, revocation or purchase it carries) and the record that said it. Kept: every copy that carries a refund, a
-- revocation or an upgrade, and every later copy of a transaction that ever had one (a copy without the refund is
-- how Apple says it reversed it). purchase's refund, revocation and upgrade columns are those of its latest
-- observation; receipt_merge.sql keeps them so.
CREATE TABLE purchase_state (
    environment           text NOT NULL,
    transaction_id        text NOT NULL,
    receipt_id            bigint NOT NULL,
    signed_at             timestamptz,
    cancellation_date     timestamptz,
    cancellation_reason   integer,
    is_upgraded           boolean NOT NULL,
    revocation_date       timestamptz,
    revocation_reason     integer,
    revocation_type       text,
    revocation_percentage integer,
    PRIMARY KEY (environment, transaction_id, receipt_id)
);
COMMENT ON TABLE purchase_state IS 'Each copy of a transaction that said something about its refund, revocation or '
    'upgrade, with when Apple signed it and which record said it; the latest one is what stands.';

-- Transactions marked before this migration: their marks, said by the receipt that last changed them.
INSERT INTO purchase_state (environment, transaction_id, receipt_id, signed_at, cancellation_date,
    cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage)
SELECT p.environment, p.transaction_id, coalesce(p.changed_receipt_id, p.first_receipt_id),
    coalesce(p.signed_date, r.request_date, r.receipt_creation_date, r.recorded_at, p.cancellation_date,
        p.revocation_date, p.purchase_date),
    p.cancellation_date,
    p.cancellation_reason, coalesce(p.is_upgraded, false), p.revocation_date, p.revocation_reason,
    p.revocation_type, p.revocation_percentage
FROM purchase p
LEFT JOIN receipt r ON r.id = coalesce(p.changed_receipt_id, p.first_receipt_id)
WHERE p.cancellation_date IS NOT NULL OR p.is_upgraded OR p.revocation_date IS NOT NULL;

-- The V2 notifications Apple sent about a transaction, once each by notificationUUID, verified only, with the
-- transaction the notification carries (its data.signedTransactionInfo, a signed object of the same record).
CREATE VIEW transaction_notification AS
SELECT DISTINCT ON (n.notification_uuid)
    n.notification_uuid, n.notification_type, n.notification_subtype, n.signed_date, n.environment,
    t.transaction_id, t.original_transaction_id, t.product_id, n.bundle_id, n.receipt_id
FROM signed_object n
JOIN signed_object t ON t.receipt_id = n.receipt_id AND t.kind = 'transaction' AND t.outcome = 'verified'
    AND t.path = CASE WHEN n.path = '' THEN 'payload' ELSE n.path || '.payload' END || '.data.signedTransactionInfo'
WHERE n.kind = 'notification' AND n.outcome = 'verified' AND n.notification_uuid IS NOT NULL
ORDER BY n.notification_uuid, n.receipt_id, n.ordinal;

-- The refund requests among them: CONSUMPTION_REQUEST (a customer asked; Apple waits 12 hours for consumption
-- information), REFUND (granted), REFUND_DECLINED, REFUND_REVERSED.
CREATE VIEW refund_notification AS
SELECT *
FROM transaction_notification
WHERE notification_type IN ('CONSUMPTION_REQUEST', 'REFUND', 'REFUND_DECLINED', 'REFUND_REVERSED');

-- A transaction's history, one row per change, in the order Apple signed them: refunded, reversed (a refund taken
-- back), revoked (a family-shared copy taken back) and restored, upgraded (from its copies); and from Apple's
-- notifications about it: refund-requested, refund-declined, renewal-off and renewal-on (DID_CHANGE_RENEWAL_STATUS),
-- expired (EXPIRED). "refunded 03-05, reversed 03-12" on the transaction's page.
CREATE VIEW purchase_state_change AS
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

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON purchase_state, transaction_notification, refund_notification, purchase_state_change
            TO iap_audit_analyst;
    END IF;
END
$$;
