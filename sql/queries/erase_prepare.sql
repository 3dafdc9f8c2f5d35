-- Erasure, step 1 (docs/privacy.md, "Erasure"): what to erase, into temporary tables of the erasing transaction.
-- $1: the account key asked for (or NULL), $2: the app account token asked for (or NULL).
-- A customer is one person however the records name them: the tokens an envelope of the account carried are erased
-- with the account, and the accounts whose envelopes carried the token with the token (one step, not a closure: a
-- shared token would otherwise reach other customers' accounts).
-- Statements end with ';' at the end of a line.
CREATE TEMPORARY TABLE erase_key ON COMMIT DROP AS
SELECT $1::text AS key WHERE $1::text IS NOT NULL
UNION SELECT account_key FROM receipt WHERE app_account_token = $2::uuid AND account_key IS NOT NULL;
CREATE TEMPORARY TABLE erase_token ON COMMIT DROP AS
SELECT $2::uuid AS token WHERE $2::uuid IS NOT NULL
UNION SELECT app_account_token FROM receipt WHERE account_key = $1::text AND app_account_token IS NOT NULL;
-- Every spelling of them, as one case-insensitive pattern for the JSON columns (hex digits and dashes only).
CREATE TEMPORARY TABLE erase_pattern ON COMMIT DROP AS
SELECT string_agg(needle, '|') AS needles
FROM (
    SELECT key AS needle FROM erase_key
    UNION ALL SELECT replace(key, '-', '') FROM erase_key
    UNION ALL SELECT token::text FROM erase_token
    UNION ALL SELECT replace(token::text, '-', '') FROM erase_token
) n;
-- The records to look at: the account's and the token's own (their envelopes name them), and those holding a signed
-- object about a transaction the token bought (a JWS carries appAccountToken inside its signed payload; a renewal
-- info or a notification names the transaction, not the token, outside it). Signed objects that did not verify are
-- in no purchase: their records are looked at too. is_customers: the envelope itself names the customer.
CREATE TEMPORARY TABLE erase_receipt ON COMMIT DROP AS
SELECT r.id, r.raw, r.account_key, r.app_account_token, r.store_account,
       coalesce(r.account_key IN (SELECT key FROM erase_key), false)
           OR coalesce(r.app_account_token IN (SELECT token FROM erase_token), false) AS is_customers,
       NULL::text AS new_raw
FROM receipt r
WHERE r.account_key IN (SELECT key FROM erase_key)
   OR r.app_account_token IN (SELECT token FROM erase_token)
   OR r.id IN (
       SELECT s.receipt_id
       FROM signed_object s
       WHERE s.outcome <> 'verified'
          OR s.transaction_id IN (SELECT p.transaction_id FROM purchase p
                                  WHERE p.app_account_token IN (SELECT token FROM erase_token))
          OR s.original_transaction_id IN (SELECT p.original_transaction_id FROM purchase p
                                           WHERE p.app_account_token IN (SELECT token FROM erase_token)));
ALTER TABLE erase_receipt ADD PRIMARY KEY (id);
CREATE TEMPORARY TABLE erase_quarantine (id bigint PRIMARY KEY) ON COMMIT DROP;
CREATE TEMPORARY TABLE erase_count (name text PRIMARY KEY, rows bigint NOT NULL) ON COMMIT DROP;
