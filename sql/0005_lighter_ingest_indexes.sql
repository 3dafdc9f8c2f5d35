-- Two indexes cost receipt ingest more than they give back (measured on 1M transaction entries):
--
-- * receipt.receipt_data_sha256: random inserts into it were about a seventh of the receipt COPY's server time.
--   The rules that look receipts up by their data (receipt replay) read receipt_summary, whose own index on the
--   digest is rebuilt by every detect run.
-- * receipt_purchase (environment, transaction_id): every lookup also names the transaction id, and the environment
--   has two values; an index on the id alone is smaller and cheaper to insert into.
DROP INDEX receipt_data_sha256_idx;
DROP INDEX receipt_purchase_transaction_idx;
CREATE INDEX receipt_purchase_transaction_idx ON receipt_purchase (transaction_id);
