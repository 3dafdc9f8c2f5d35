-- Merges one file's staged transaction copies into purchase after receipt_store_new.sql has stored the new
-- transactions: here, a first refund's state; receipt_compare_copies.sql then looks each staged copy up once in
-- purchase: it records the disagreeing ones, keeps the copies that speak of a transaction's state and fills an
-- expiry only a later copy carries. (Receipts, their links to transactions and pending renewals were COPYed straight
-- into their tables.)
-- Statements end with ';' at the end of a line; each runs in the file's transaction.

-- A transaction's state is what Apple said last (docs/decisions.md, "Transaction state"), and every copy that said
-- something about it is kept in purchase_state, with when Apple said it: a signed copy's signedDate, a verifyReceipt
-- copy's request date, else its receipt's creation date, else when our server recorded it; a record with none of
-- them (an old notification) said it no earlier than the refund, revocation or purchase it carries.
-- Here, a transaction about to get its first refund, revocation or upgrade: its purchase is marked has_state, and its
-- state as stored so far is kept, said by its first receipt (the file's first copy, for a transaction this file
-- stored first). Noted in stage_observed, like the copies receipt_compare_copies.sql keeps: a transaction with a
-- state is never settled (SettledTransactions). A purchase that never had a state is not read here at all.
WITH marked AS (
    SELECT DISTINCT environment, transaction_id
    FROM stage_entry
    WHERE cancellation_date IS NOT NULL OR is_upgraded OR revocation_date IS NOT NULL
), flagged AS (
    -- Only has_state changes: the row returned carries the state as stored so far.
    UPDATE purchase p
    SET has_state = true
    FROM marked m
    WHERE p.environment = m.environment AND p.transaction_id = m.transaction_id AND NOT p.has_state
    RETURNING p.environment, p.transaction_id, p.first_receipt_id, p.signed_date, p.purchase_date,
        p.cancellation_date, p.cancellation_reason, p.is_upgraded, p.revocation_date, p.revocation_reason,
        p.revocation_type, p.revocation_percentage
), baseline AS (
    INSERT INTO purchase_state (environment, transaction_id, receipt_id, signed_at, cancellation_date,
        cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage)
    SELECT p.environment, p.transaction_id, p.first_receipt_id,
        coalesce(r.request_date, r.receipt_creation_date, p.signed_date, r.recorded_at, p.cancellation_date,
            p.revocation_date, p.purchase_date),
        p.cancellation_date,
        p.cancellation_reason, coalesce(p.is_upgraded, false), p.revocation_date, p.revocation_reason,
        p.revocation_type, p.revocation_percentage
    FROM flagged p
    LEFT JOIN receipt r ON r.id = p.first_receipt_id
    ON CONFLICT DO NOTHING
    RETURNING environment, transaction_id
)
INSERT INTO stage_observed (environment, transaction_id) SELECT environment, transaction_id FROM baseline;
