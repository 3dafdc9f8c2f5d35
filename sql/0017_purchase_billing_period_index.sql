-- A subscription's billing periods (docs/decisions.md, "Incremental reconciliation"): reconciliation counts a period
-- once, on its earliest transaction, so a run that recounts a day reads the other transactions of each period it
-- meets, by (original transaction, web order line item). Indexed by the original transaction alone, each lookup read
-- every renewal of the subscription, a number that grows with the history (24 per lookup, 0.3 s of a day's reconcile
-- at 4M entries). The new index serves every lookup by original transaction as well, so it replaces the old one: a
-- load maintains no more indexes than before.
CREATE INDEX purchase_billing_period_idx ON purchase (original_transaction_id, web_order_line_item_id);
DROP INDEX purchase_original_transaction_idx;
