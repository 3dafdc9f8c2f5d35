-- receipt_merge.sql's form for a Citus coordinator (docs/scale.md, "Citus"), after the same receipt_store_new.sql: the
-- same purchase_state rows. Citus joins a temporary table to one distributed table at a time, so the state steps first
-- read what they need of purchase_state, purchase and receipt into temporary tables, each by key with an array.
-- Statements end with ';' at the end of a line; each runs in the file's transaction.

-- A transaction's state is what Apple said last (receipt_merge.sql says how, and when Apple said it).
-- The file's transactions that spoke of their state before.
CREATE TEMPORARY TABLE stage_stateful ON COMMIT DROP AS
SELECT DISTINCT environment, transaction_id
FROM purchase_state
WHERE transaction_id = ANY (ARRAY(SELECT DISTINCT transaction_id FROM stage_entry));
-- The copies that say something: every copy of a transaction that has a mark in this file or ever had one.
CREATE TEMPORARY TABLE stage_state_copy ON COMMIT DROP AS
SELECT s.*
FROM stage_entry s
WHERE EXISTS (
        SELECT 1 FROM stage_entry m
        WHERE m.environment = s.environment AND m.transaction_id = s.transaction_id
          AND (m.cancellation_date IS NOT NULL OR m.is_upgraded OR m.revocation_date IS NOT NULL))
   OR EXISTS (
       SELECT 1 FROM stage_stateful o WHERE o.environment = s.environment AND o.transaction_id = s.transaction_id);
-- Their stored purchases, and the receipts that date them (the copies' own and the purchases' first).
CREATE TEMPORARY TABLE stage_state_purchase ON COMMIT DROP AS
SELECT environment, transaction_id, product_id, first_receipt_id, signed_date, purchase_date, cancellation_date,
    cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage
FROM purchase
WHERE transaction_id = ANY (ARRAY(SELECT DISTINCT transaction_id FROM stage_state_copy));
CREATE TEMPORARY TABLE stage_state_receipt ON COMMIT DROP AS
SELECT id, request_date, receipt_creation_date, recorded_at
FROM receipt
WHERE id = ANY (ARRAY(
    SELECT receipt_id FROM stage_state_copy UNION SELECT first_receipt_id FROM stage_state_purchase));

-- First, a transaction about to get its first refund, revocation or upgrade: its state as stored so far.
INSERT INTO purchase_state (environment, transaction_id, receipt_id, signed_at, cancellation_date,
    cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage)
SELECT p.environment, p.transaction_id, p.first_receipt_id,
    coalesce(r.request_date, r.receipt_creation_date, p.signed_date, r.recorded_at, p.cancellation_date,
        p.revocation_date, p.purchase_date),
    p.cancellation_date, p.cancellation_reason, coalesce(p.is_upgraded, false), p.revocation_date,
    p.revocation_reason, p.revocation_type, p.revocation_percentage
FROM stage_state_purchase p
LEFT JOIN stage_state_receipt r ON r.id = p.first_receipt_id
WHERE EXISTS (
        SELECT 1 FROM stage_state_copy s
        WHERE s.environment = p.environment AND s.transaction_id = p.transaction_id
          AND (s.cancellation_date IS NOT NULL OR s.is_upgraded OR s.revocation_date IS NOT NULL))
  AND NOT EXISTS (
        SELECT 1 FROM stage_stateful o WHERE o.environment = p.environment AND o.transaction_id = p.transaction_id)
ON CONFLICT DO NOTHING;
-- Their purchases are marked has_state, as receipt_merge.sql marks them (the plain form's lookup of each copy reads
-- it; here it is only kept alike). The key is matched as one text ('/' is in no environment), an array Citus prunes.
UPDATE purchase
SET has_state = true
WHERE transaction_id = ANY (ARRAY(
        SELECT transaction_id FROM stage_state_copy
        WHERE cancellation_date IS NOT NULL OR is_upgraded OR revocation_date IS NOT NULL))
  AND environment || '/' || transaction_id = ANY (ARRAY(
        SELECT environment || '/' || transaction_id FROM stage_state_copy
        WHERE cancellation_date IS NOT NULL OR is_upgraded OR revocation_date IS NOT NULL))
  AND NOT has_state;

-- Then the file's copies that say something, one per record, a marked copy first; the transactions are noted in
-- stage_observed.
INSERT INTO purchase_state (environment, transaction_id, receipt_id, signed_at, cancellation_date,
    cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage)
SELECT DISTINCT ON (s.environment, s.transaction_id, s.receipt_id)
    s.environment, s.transaction_id, s.receipt_id,
    coalesce(s.signed_date, r.request_date, r.receipt_creation_date, r.recorded_at, s.cancellation_date,
        s.revocation_date, s.purchase_date),
    s.cancellation_date, s.cancellation_reason, coalesce(s.is_upgraded, false), s.revocation_date,
    s.revocation_reason, s.revocation_type, s.revocation_percentage
FROM stage_state_copy s
JOIN stage_state_receipt r ON r.id = s.receipt_id
JOIN stage_state_purchase p ON p.environment = s.environment AND p.transaction_id = s.transaction_id
    AND p.product_id = s.product_id
ORDER BY s.environment, s.transaction_id, s.receipt_id,
    (s.cancellation_date IS NULL AND s.revocation_date IS NULL AND NOT coalesce(s.is_upgraded, false)),
    s.source, s.ordinal
ON CONFLICT DO NOTHING;
INSERT INTO stage_observed
SELECT DISTINCT s.environment, s.transaction_id
FROM stage_state_copy s
JOIN stage_state_purchase p ON p.environment = s.environment AND p.transaction_id = s.transaction_id
    AND p.product_id = s.product_id;

-- What stands: the refund and revocation of the latest copy Apple signed; an upgrade is never taken back. purchase
-- and purchase_state are split alike (by transaction id), so they join on each worker.
UPDATE purchase p
SET changed_receipt_id = l.receipt_id,
    cancellation_date = l.cancellation_date,
    cancellation_reason = l.cancellation_reason,
    is_upgraded = CASE WHEN l.is_upgraded THEN true ELSE p.is_upgraded END,
    revocation_date = l.revocation_date,
    revocation_reason = l.revocation_reason,
    revocation_type = l.revocation_type,
    revocation_percentage = l.revocation_percentage
FROM (
    SELECT DISTINCT ON (o.environment, o.transaction_id) o.environment, o.transaction_id, o.receipt_id,
        o.cancellation_date, o.cancellation_reason, o.revocation_date, o.revocation_reason, o.revocation_type,
        o.revocation_percentage, bool_or(o.is_upgraded) OVER (PARTITION BY o.environment, o.transaction_id)
            AS is_upgraded
    FROM purchase_state o
    WHERE o.transaction_id = ANY (ARRAY(SELECT transaction_id FROM stage_observed))
    ORDER BY o.environment, o.transaction_id, o.signed_at DESC NULLS LAST, o.receipt_id DESC
) l
WHERE p.environment = l.environment AND p.transaction_id = l.transaction_id
  AND (p.cancellation_date IS DISTINCT FROM l.cancellation_date
       OR p.cancellation_reason IS DISTINCT FROM l.cancellation_reason
       OR (l.is_upgraded AND p.is_upgraded IS DISTINCT FROM true)
       OR p.revocation_date IS DISTINCT FROM l.revocation_date
       OR p.revocation_type IS DISTINCT FROM l.revocation_type
       OR p.revocation_percentage IS DISTINCT FROM l.revocation_percentage);

-- A transaction first stored from a verifyReceipt copy takes what only StoreKit 2 says from its first signed copy.
UPDATE purchase p
SET changed_receipt_id = s.receipt_id, signed_date = s.signed_date, price = s.price, currency = s.currency,
    storefront = s.storefront, storefront_id = s.storefront_id, type = s.type,
    transaction_reason = s.transaction_reason, offer_type = s.offer_type, offer_identifier = s.offer_identifier, offer_discount_type = s.offer_discount_type,
    offer_period = s.offer_period, app_transaction_id = s.app_transaction_id
FROM (
    SELECT DISTINCT ON (environment, transaction_id) *
    FROM stage_entry
    WHERE source = 'signed'
    ORDER BY environment, transaction_id, receipt_id, ordinal
) s
WHERE p.environment = s.environment AND p.transaction_id = s.transaction_id AND p.product_id = s.product_id
  AND p.signed_date IS NULL AND s.signed_date IS NOT NULL;
