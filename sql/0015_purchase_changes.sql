-- Which receipt last changed a stored transaction (docs/decisions.md, "Incremental detection"). A later copy can add
-- a refund, an upgrade, a revocation, an expiry or StoreKit 2's facts to a purchase that earlier receipts listed; an
-- incremental detect must then look at those earlier receipts again, and an incremental reconcile at the days of
-- that purchase. Listing the transactions a new file carries is not enough to tell: a subscriber's every receipt
-- repeats the whole history, so most of what a day lists did not change.
ALTER TABLE purchase ADD COLUMN changed_receipt_id bigint;
COMMENT ON COLUMN purchase.changed_receipt_id IS 'The receipt whose copy last added a fact to this transaction '
    '(refund, upgrade, revocation, expiry, signed facts); NULL when none did after the first.';
