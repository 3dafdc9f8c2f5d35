-- Compares the staged copies with the stored transaction, after receipt_merge.sql, in one lookup of each copy's
-- purchase. A copy that disagrees on what Apple never changes (compared to the second: some copies carry milliseconds,
-- others only the text date) is recorded as a conflict; an agreeing copy that carries an expiry the stored
-- transaction lacks gives it that expiry (the first such copy in file order); a copy of a transaction that ever had a
-- refund, revocation or upgrade (purchase.has_state) is kept in purchase_state, and the transaction's state is then
-- its latest copy's. Returns the conflicting transactions, and those whose state the file spoke of (stage_observed):
-- the loader keeps staging their copies for the rest of the run (see SettledTransactions).
-- Statements end with ';' at the end of a line; each runs in the file's transaction.
--
-- The lookup. Only the copies that matter leave it (kept once, MATERIALIZED): those that disagree, bring an expiry
-- or are signed copies of a transaction stored without a signedDate, into stage_compared for the statements below,
-- and those of a transaction with a state. Each of these
-- is one per record, a marked copy first (a verifyReceipt answer lists a transaction in in_app and in
-- latest_receipt_info, and only the latter carries is_upgraded); a copy that disagrees on the product is a conflict,
-- not a state. What Apple said when is receipt_merge.sql's rule: a signed copy's signedDate, else its receipt's
-- request date, creation date or recording. A copy whose state is the stored transaction's (state_moves false, the
-- comparison what stands makes below) cannot move it: see stage_observed.state_may_change.
WITH compared AS MATERIALIZED (
    SELECT *
    FROM (
        SELECT p.id AS purchase_id, p.has_state, p.product_id = s.product_id AS same_product,
            p.expires_date IS NULL AS stored_without_expiry,
            s.source = 'signed' AND p.signed_date IS NULL AS fills_signed_fields,
            s.receipt_id, s.source, s.ordinal, s.environment,
            s.transaction_id, s.product_id, s.purchase_date, s.original_transaction_id, s.expires_date, s.signed_date,
            s.cancellation_date, s.cancellation_reason, s.is_upgraded, s.revocation_date, s.revocation_reason,
            s.revocation_type, s.revocation_percentage,
            (s.cancellation_date IS DISTINCT FROM p.cancellation_date
             OR s.cancellation_reason IS DISTINCT FROM p.cancellation_reason
             OR (coalesce(s.is_upgraded, false) AND p.is_upgraded IS DISTINCT FROM true)
             OR s.revocation_date IS DISTINCT FROM p.revocation_date
             OR s.revocation_type IS DISTINCT FROM p.revocation_type
             OR s.revocation_percentage IS DISTINCT FROM p.revocation_percentage) AS state_moves,
            (p.product_id IS DISTINCT FROM s.product_id
             OR date_trunc('second', p.purchase_date) IS DISTINCT FROM date_trunc('second', s.purchase_date)
             OR p.original_transaction_id IS DISTINCT FROM s.original_transaction_id) AS disagrees
        FROM stage_entry s
        -- LATERAL … LIMIT 1 (the key is unique) keeps this one index probe per staged copy: a hash join would read
        -- the whole purchase table for every file.
        CROSS JOIN LATERAL (
            SELECT id, has_state, product_id, purchase_date, original_transaction_id, expires_date, signed_date,
                cancellation_date, cancellation_reason, is_upgraded, revocation_date, revocation_type,
                revocation_percentage
            FROM purchase
            WHERE environment = s.environment AND transaction_id = s.transaction_id
            LIMIT 1
        ) p
    ) c
    WHERE has_state OR disagrees OR (stored_without_expiry AND expires_date IS NOT NULL) OR fills_signed_fields
), observed AS (
    INSERT INTO purchase_state (environment, transaction_id, receipt_id, signed_at, cancellation_date,
        cancellation_reason, is_upgraded, revocation_date, revocation_reason, revocation_type, revocation_percentage)
    SELECT DISTINCT ON (s.environment, s.transaction_id, s.receipt_id)
        s.environment, s.transaction_id, s.receipt_id,
        coalesce(s.signed_date, r.request_date, r.receipt_creation_date, r.recorded_at, s.cancellation_date,
            s.revocation_date, s.purchase_date),
        s.cancellation_date,
        s.cancellation_reason, coalesce(s.is_upgraded, false), s.revocation_date, s.revocation_reason,
        s.revocation_type, s.revocation_percentage
    FROM compared s
    JOIN receipt r ON r.id = s.receipt_id
    WHERE s.has_state AND s.same_product
    ORDER BY s.environment, s.transaction_id, s.receipt_id,
        (s.cancellation_date IS NULL AND s.revocation_date IS NULL AND NOT coalesce(s.is_upgraded, false)),
        s.source, s.ordinal
    ON CONFLICT DO NOTHING
    RETURNING environment, transaction_id
), noted AS (
    INSERT INTO stage_observed (environment, transaction_id, state_may_change)
    SELECT o.environment, o.transaction_id, m.transaction_id IS NOT NULL
    FROM (SELECT DISTINCT environment, transaction_id FROM observed) o
    LEFT JOIN (
        SELECT DISTINCT environment, transaction_id FROM compared WHERE has_state AND same_product AND state_moves
    ) m ON m.environment = o.environment AND m.transaction_id = o.transaction_id
), recorded AS (
    INSERT INTO purchase_conflict (purchase_id, receipt_id, source, ordinal, product_id, purchase_date,
        original_transaction_id)
    SELECT purchase_id, receipt_id, source, ordinal, product_id, purchase_date, original_transaction_id
    FROM compared
    WHERE disagrees
    ON CONFLICT (receipt_id, source, ordinal) DO NOTHING
)
INSERT INTO stage_compared (purchase_id, receipt_id, source, ordinal, environment, transaction_id, expires_date,
    disagrees, brings_expiry, fills_signed_fields)
SELECT purchase_id, receipt_id, source, ordinal, environment, transaction_id, expires_date, disagrees,
    stored_without_expiry AND expires_date IS NOT NULL, fills_signed_fields
FROM compared
WHERE disagrees OR (stored_without_expiry AND expires_date IS NOT NULL) OR fills_signed_fields;

-- What stands: the refund and revocation of the latest copy Apple signed (a late file's older copy changes nothing);
-- an upgrade is never taken back. Each transaction the file spoke of is read through its keys, once (LATERAL … LIMIT
-- 1, as above; whether any copy was an upgrade is a window over the same rows): joined as one set, the planner hashed
-- the whole of purchase and purchase_state for every file, and a separate EXISTS for the upgrade became a scan of all
-- of purchase_state per file, server work that grew with the archive. Only the transactions whose state may change
-- are read (stage_observed.state_may_change): most copies a file keeps repeat the state that stands. Each purchase is
-- found by its key and updated by its row address (ctid): joined on the key, a planner whose statistics lag purchase's
-- growth in the run read the whole table into a hash for the file's few transactions.
UPDATE purchase p
SET changed_receipt_id = l.receipt_id,
    cancellation_date = l.cancellation_date,
    cancellation_reason = l.cancellation_reason,
    is_upgraded = CASE WHEN l.any_upgraded THEN true ELSE p.is_upgraded END,
    revocation_date = l.revocation_date,
    revocation_reason = l.revocation_reason,
    revocation_type = l.revocation_type,
    revocation_percentage = l.revocation_percentage
FROM (SELECT DISTINCT environment, transaction_id FROM stage_observed WHERE state_may_change) o
CROSS JOIN LATERAL (
    SELECT s.receipt_id, s.cancellation_date, s.cancellation_reason, s.revocation_date, s.revocation_reason,
        s.revocation_type, s.revocation_percentage, bool_or(s.is_upgraded) OVER () AS any_upgraded
    FROM purchase_state s
    WHERE s.environment = o.environment AND s.transaction_id = o.transaction_id
    ORDER BY s.signed_at DESC NULLS LAST, s.receipt_id DESC
    LIMIT 1
) l
CROSS JOIN LATERAL (
    SELECT ctid AS address FROM purchase WHERE environment = o.environment AND transaction_id = o.transaction_id LIMIT 1
) k
WHERE p.ctid = k.address
  AND (p.cancellation_date IS DISTINCT FROM l.cancellation_date
       OR p.cancellation_reason IS DISTINCT FROM l.cancellation_reason
       OR (l.any_upgraded AND p.is_upgraded IS DISTINCT FROM true)
       OR p.revocation_date IS DISTINCT FROM l.revocation_date
       OR p.revocation_type IS DISTINCT FROM l.revocation_type
       OR p.revocation_percentage IS DISTINCT FROM l.revocation_percentage);

-- A transaction first stored from a verifyReceipt copy takes what only StoreKit 2 says from its first signed copy.
-- The lookup above found its signed copies (a purchase without signedDate has all of them there): looking each
-- signed copy up in purchase again was a tenth of a signed ingest's server work, for no row on signed data.
UPDATE purchase p
SET changed_receipt_id = s.receipt_id, signed_date = s.signed_date, price = s.price, currency = s.currency,
    storefront = s.storefront, storefront_id = s.storefront_id, type = s.type,
    transaction_reason = s.transaction_reason, offer_type = s.offer_type, offer_identifier = s.offer_identifier, offer_discount_type = s.offer_discount_type,
    offer_period = s.offer_period, app_transaction_id = s.app_transaction_id
FROM (
    SELECT DISTINCT ON (e.environment, e.transaction_id) c.purchase_id, e.*
    FROM stage_compared c
    JOIN stage_entry e ON e.receipt_id = c.receipt_id AND e.source = c.source AND e.ordinal = c.ordinal
    WHERE c.fills_signed_fields
    ORDER BY e.environment, e.transaction_id, e.receipt_id, e.ordinal
) s
WHERE p.id = s.purchase_id AND p.product_id = s.product_id AND p.signed_date IS NULL AND s.signed_date IS NOT NULL;

-- The expiry only a later copy carries.
UPDATE purchase p
SET expires_date = f.expires_date, changed_receipt_id = f.receipt_id
FROM (
    SELECT DISTINCT ON (purchase_id) purchase_id, expires_date, receipt_id
    FROM stage_compared
    WHERE brings_expiry AND NOT disagrees
    ORDER BY purchase_id, receipt_id, source, ordinal
) f
WHERE p.id = f.purchase_id;

SELECT environment, transaction_id FROM stage_compared WHERE disagrees
UNION
SELECT environment, transaction_id FROM stage_observed;
