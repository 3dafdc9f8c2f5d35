-- StoreKit 2 signed data (docs/inputs.md, "Signed data"; docs/decisions.md, "Signed data").
--
-- A signed transaction is a transaction like any other: it lives in purchase, keyed by (environment, transaction
-- id), so that one seen as a JWS line, in a V2 notification and in a history page is one transaction, and one that
-- began under verifyReceipt goes on under StoreKit 2. Only a transaction whose signature verified gets there.
-- purchase gains what only StoreKit 2 says; a legacy transaction leaves these columns NULL.
ALTER TABLE purchase
    ADD COLUMN signed_date           timestamptz,
    ADD COLUMN price                 bigint,
    ADD COLUMN currency              text,
    ADD COLUMN storefront            text,
    ADD COLUMN storefront_id         text,
    ADD COLUMN type                  text,
    ADD COLUMN transaction_reason    text,
    ADD COLUMN revocation_date       timestamptz,
    ADD COLUMN revocation_reason     integer,
    ADD COLUMN revocation_type       text,
    ADD COLUMN revocation_percentage integer,
    ADD COLUMN offer_type            integer,
    ADD COLUMN offer_identifier      text,
    ADD COLUMN offer_discount_type   text,
    ADD COLUMN offer_period          text,
    ADD COLUMN app_transaction_id    text;
-- A signed transaction's copy is linked to its record like the copies of a verifyReceipt answer.
ALTER TABLE receipt_purchase DROP CONSTRAINT receipt_purchase_source_check;
ALTER TABLE receipt_purchase ADD CONSTRAINT receipt_purchase_source_check
    CHECK (source IN ('receipt', 'in_app', 'latest_receipt_info', 'signed'));
COMMENT ON COLUMN purchase.price IS 'StoreKit 2: the customer price in milliunits of currency (10.99 is 10990).';
COMMENT ON COLUMN purchase.revocation_percentage IS 'StoreKit 2: thousandths of a percent refunded (50000 is half).';

-- Every JWS a stored record holds, with the outcome of its verification at its signedDate: the record of what was
-- signed and whether Apple signed it. A transaction that did not verify is here and nowhere else: kept and shown,
-- never a purchase. The JWS itself stays in receipt.raw, verbatim; these are its decoded facts.
CREATE TABLE signed_object (
    receipt_id           bigint NOT NULL,
    ordinal              integer NOT NULL,
    kind                 text NOT NULL,
    path                 text NOT NULL,
    outcome              text NOT NULL,
    signed_date          timestamptz,
    environment          text,
    bundle_id            text,
    transaction_id       text,
    original_transaction_id text,
    product_id           text,
    app_transaction_id   text,
    notification_uuid    text,
    notification_type    text,
    notification_subtype text,
    PRIMARY KEY (receipt_id, ordinal)
);
COMMENT ON TABLE signed_object IS 'Every JWS of a stored record and its verification outcome (docs/inputs.md).';
CREATE INDEX signed_object_unverified_idx ON signed_object (receipt_id) WHERE outcome <> 'verified';

-- A notification is one notification however many times it arrived (a V2 body, then a notification-history page):
-- the first verified copy by notificationUUID.
CREATE VIEW app_store_notification AS
SELECT DISTINCT ON (notification_uuid)
    notification_uuid, notification_type, notification_subtype, signed_date, environment, bundle_id,
    receipt_id AS first_receipt_id
FROM signed_object
WHERE kind = 'notification' AND outcome = 'verified' AND notification_uuid IS NOT NULL
ORDER BY notification_uuid, receipt_id, ordinal;

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON signed_object, app_store_notification TO iap_audit_analyst;
    END IF;
END
$$;
