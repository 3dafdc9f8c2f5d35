-- StoreKit 2 in reconciliation and store accounts (docs/decisions.md, "Signed data").
--
-- A signed transaction says what the customer paid (purchase.price, milliunits of purchase.currency): a
-- reconciliation line shows the recorded customer amount by currency beside Apple's customer_price, but only where
-- every recorded transaction of the line carries a price. NULL means some did not (every legacy transaction): a
-- partial sum would read as a difference that is not there. '{}' is a line with nothing recorded.
ALTER TABLE reconciliation_line ADD COLUMN recorded_customer_amount jsonb;
COMMENT ON COLUMN reconciliation_line.recorded_customer_amount IS 'What our recorded transactions say the customers '
    'paid, by currency (units x price, refunds negative), beside Apple''s customer_price; NULL when any recorded '
    'transaction of the line carries no price.';

-- appTransactionId names one App Store account per app: verified signed transactions that carry the same one belong
-- to one store account, a confirmed link like a recorded store account. Each one and the cluster it joined.
CREATE TABLE store_account_app_transaction (
    app_transaction_id  text PRIMARY KEY,
    store_account_key   text NOT NULL
);
CREATE INDEX store_account_app_transaction_key_idx ON store_account_app_transaction (store_account_key);
COMMENT ON TABLE store_account_app_transaction IS 'StoreKit 2 appTransactionIds of verified transactions, and the '
    'store account (cluster) each one joined.';

-- Clusters built before this migration never saw the link: the next detect rebuilds them from every receipt, as it
-- does when the catalog changes.
DELETE FROM detection_state WHERE name = 'store_account_catalog';

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON store_account_app_transaction TO iap_audit_analyst;
    END IF;
END
$$;
