-- The signed objects (JWS) of an evidence bundle's records, with the outcome ingest stored for each. $1 receipt ids.
SELECT s.receipt_id::text AS receipt_id, s.ordinal, s.kind, s.path, s.outcome,
       to_char(s.signed_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS signed_date, s.transaction_id
FROM signed_object s
WHERE s.receipt_id = ANY($1::bigint[])
ORDER BY s.receipt_id, s.ordinal
