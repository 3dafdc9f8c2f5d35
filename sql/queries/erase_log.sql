-- Erasure, step 3 (docs/privacy.md, "Erasure"): appends the erasure's row to the log, after erase_apply.sql, and
-- returns its id. Counts of keys and tokens and rows per table, never the identifiers themselves.
-- $1: the run's id, $2: who (the actor), $3: requested by (account-key, app-account-token or both), $4: the
-- operator's reference for the request ('' when none).
INSERT INTO erasure (run_id, actor, requested_by, reference, account_keys, tokens, rows)
SELECT $1::bigint, $2::text, $3::text, $4::text, (SELECT count(*) FROM erase_key), (SELECT count(*) FROM erase_token),
       coalesce((SELECT jsonb_object_agg(name, rows ORDER BY name) FROM erase_count WHERE rows > 0), '{}')
RETURNING id;
