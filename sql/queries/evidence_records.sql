-- The stored records an evidence bundle cites (docs/evidence.md): by receipt id ($1), by a transaction they list or
-- sign ($2, transaction ids, matched as transaction and original transaction ids) and by the SHA-256 of their
-- receipt data ($3, hex). Each with its raw text exactly as stored (the application username was cut out on read;
-- the account is its key, a hash) and its file's id, for the provenance.
SELECT r.id::text AS id, r.file_id, r.record_number, r.line, r.shape, r.style, r.status, r.environment,
       r.account_key, r.app_account_token::text AS app_account_token, r.store_account,
       encode(r.receipt_data_sha256, 'hex') AS receipt_data_sha256, r.record_key::text AS record_key,
       to_char(r.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS recorded_at, r.raw
FROM receipt r
WHERE r.id = ANY($1::bigint[])
   OR r.id IN (SELECT rp.receipt_id FROM receipt_purchase rp
               WHERE rp.environment IN ('Production', 'Sandbox') AND rp.transaction_id = ANY($2::text[]))
   OR r.id IN (SELECT s.receipt_id FROM signed_object s
               WHERE s.transaction_id = ANY($2::text[]) OR s.original_transaction_id = ANY($2::text[]))
   OR r.receipt_data_sha256 = ANY(ARRAY(SELECT decode(h, 'hex') FROM unnest($3::text[]) AS h
                                        WHERE h ~ '^[0-9a-f]{64}$'))
ORDER BY r.id
