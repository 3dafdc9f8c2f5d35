-- What is known of a transaction before its history is asked for: the app that signed it (its bundle id),
-- and the revision each history (transactions, refunds) was last fetched to. $1: the transaction id; $2: the
-- environment.
SELECT (SELECT bundle_id FROM signed_object WHERE transaction_id = $1 AND bundle_id IS NOT NULL LIMIT 1)
           AS bundle_id,
       (SELECT revision FROM apple_history_revision WHERE kind = 'transactions' AND environment = $2 AND transaction_id = $1)
           AS transactions_revision,
       (SELECT revision FROM apple_history_revision WHERE kind = 'refunds' AND environment = $2 AND transaction_id = $1)
           AS refunds_revision
