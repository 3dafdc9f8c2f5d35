-- Whether a transaction ever had a refund, revocation or upgrade, i.e. whether purchase_state holds any copy of it
-- (issue 29). The merge looks every staged copy up in purchase once already (receipt_compare_copies.sql); reading
-- this flag there finds the copies whose state must be kept, where probing purchase_state for each copy cost legacy
-- receipt ingest 7-12% more server CPU. A purchase that never had one stays false and costs nothing more.
-- receipt_merge.sql sets it when it writes a transaction's first purchase_state row; nothing clears it.
ALTER TABLE purchase ADD COLUMN has_state boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN purchase.has_state IS 'Whether purchase_state holds copies of this transaction (it ever had a '
    'refund, revocation or upgrade).';

UPDATE purchase p
SET has_state = true
WHERE EXISTS (
    SELECT 1 FROM purchase_state o WHERE o.environment = p.environment AND o.transaction_id = p.transaction_id);
