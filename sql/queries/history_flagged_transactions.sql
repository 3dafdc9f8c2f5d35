-- The transactions of open flags whose history `fetch history --flagged` asks Apple for: flags on a
-- transaction of the environment, and the (original) transactions of flagged app accounts. $1: the environment
-- (Production or Sandbox); $2: its prefix in a flag's subject key ('' for Production, 'sandbox:' else).
SELECT DISTINCT id FROM (
    SELECT substr(f.subject_key, length($2) + 1) AS id
    FROM flag f
    WHERE f.status = 'open' AND f.subject_kind = 'transaction'
      AND (($2 = '' AND f.subject_key NOT LIKE 'sandbox:%') OR ($2 <> '' AND f.subject_key LIKE $2 || '%'))
    UNION
    SELECT coalesce(p.original_transaction_id, p.transaction_id)
    FROM flag f
    JOIN receipt r ON r.account_key = f.subject_key
    JOIN receipt_purchase rp ON rp.receipt_id = r.id
    JOIN purchase p ON p.environment = rp.environment AND p.transaction_id = rp.transaction_id
    WHERE f.status = 'open' AND f.subject_kind = 'app-account' AND p.environment = $1
) t
ORDER BY id
