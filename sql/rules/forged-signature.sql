-- rule: forged-signature
-- version: 2
-- settings from: sandbox-in-production
-- subject: transaction (the receipt, when the signed object names no transaction)
-- description: A signed record (JWS) whose signature did not verify at its signing date (signedDate; an app
--   transaction's receiptCreationDate): the strongest signal there is. A payload with no signing date at all
--   (no-signing-date) is not verified and not flagged: a missing date is no evidence of forgery. Such a record is
--   kept and shown but never counts as a purchase. High when it claims Production; info when every failed copy
--   claims Xcode or LocalTesting (StoreKit testing, never a sale), and none at all when those come from an account
--   on the tester allowlist (sandbox-in-production's tester_account_keys); warning otherwise.
-- $1: the rule's settings (jsonb): tester_account_keys, shared with sandbox-in-production.
WITH s AS (
    SELECT ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> 'tester_account_keys')) AS testers
), failed AS (
    SELECT o.receipt_id, o.ordinal, o.kind, o.path, o.outcome, o.signed_date, o.environment, o.bundle_id,
           o.transaction_id, o.product_id, r.account_key, r.line, f.path AS file,
           o.environment IN ('Xcode', 'LocalTesting') AS is_test_environment,
           CASE WHEN o.transaction_id IS NULL THEN 'receipt' ELSE 'transaction' END AS subject_kind,
           CASE WHEN o.transaction_id IS NULL THEN o.receipt_id::text
                WHEN o.environment = 'Production' THEN o.transaction_id
                ELSE lower(coalesce(o.environment, 'unknown')) || ':' || o.transaction_id END AS subject_key
    FROM signed_object o
    CROSS JOIN s
    JOIN receipt_summary r ON r.id = o.receipt_id
    LEFT JOIN input_file f ON f.id = r.file_id
    WHERE o.outcome NOT IN ('verified', 'no-signing-date')
      AND NOT (o.environment IN ('Xcode', 'LocalTesting') AND r.account_key = ANY (s.testers))
)
SELECT subject_kind, subject_key,
       CASE WHEN bool_or(environment = 'Production') THEN 'high'
            WHEN bool_and(is_test_environment) THEN 'info'
            ELSE 'warning' END AS severity,
       min(signed_date) AS window_start, max(signed_date) AS window_end, count(*)::numeric AS score,
       jsonb_build_object(
           'claimed_environments', jsonb_agg(DISTINCT environment),
           'outcomes', jsonb_agg(DISTINCT outcome),
           'account_keys', coalesce(jsonb_agg(DISTINCT account_key) FILTER (WHERE account_key IS NOT NULL), '[]'),
           'signed_objects', jsonb_agg(jsonb_build_object(
               'file', file, 'line', line, 'receipt_id', receipt_id, 'path', path, 'kind', kind,
               'outcome', outcome, 'environment', environment, 'signed_date', signed_date,
               'bundle_id', bundle_id, 'product_id', product_id, 'transaction_id', transaction_id)
               ORDER BY receipt_id, ordinal)
       ) AS evidence
FROM failed
GROUP BY subject_kind, subject_key
