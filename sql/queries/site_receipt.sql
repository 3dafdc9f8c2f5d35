-- The receipt pages of a batch of report-site pages: where each receipt was read and what it said (never its raw
-- text). $1 receipt ids; each row starts with its id.
SELECT r.id::text, i.path AS file, r.line, r.account_key, r.status, r.environment, r.is_sandbox, r.style, r.bundle_id,
       r.store_account,
       to_char(r.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS recorded_utc,
       r.transaction_entries, encode(r.receipt_data_sha256, 'hex') AS receipt_data_sha256,
       (SELECT string_agg(DISTINCT rp.transaction_id, ' ') FROM receipt_purchase rp WHERE rp.receipt_id = r.id)
           AS transactions
FROM receipt r
JOIN input_file i ON i.id = r.file_id
WHERE r.id = ANY($1::bigint[])
