-- rule: sandbox-in-production
-- version: 1
-- setting: tester_account_keys text[] = []
-- subject: receipt
-- description: A sandbox receipt (environment Sandbox, a sandbox receipt_type, or status 21007) in production
--   data, from an account not on the tester allowlist (App Review and internal testers).
-- $1: the rule's settings (jsonb): tester_account_keys.
-- $2: true to evaluate every subject; false for the subjects detect queued in detect_pending.
WITH s AS (
    SELECT ARRAY(SELECT jsonb_array_elements_text($1::jsonb -> 'tester_account_keys')) AS testers
)
SELECT 'receipt' AS subject_kind, r.id::text AS subject_key, 'warning' AS severity,
       r.recorded_at AS window_start, r.recorded_at AS window_end, 1::numeric AS score,
       jsonb_build_object(
           'receipt_id', r.id, 'file', f.path, 'line', r.line, 'account_key', r.account_key, 'status', r.status,
           'environment', r.environment, 'receipt_type', r.receipt_type, 'bundle_id', r.bundle_id,
           'transaction_entries', r.transaction_entries
       ) AS evidence
FROM receipt_summary r
CROSS JOIN s
LEFT JOIN input_file f ON f.id = r.file_id
WHERE r.is_sandbox AND (r.account_key IS NULL OR NOT (r.account_key = ANY (s.testers)))
  AND ($2::boolean OR r.id = ANY (ARRAY(SELECT subject_key::bigint FROM detect_pending WHERE subject_kind = 'receipt')))
