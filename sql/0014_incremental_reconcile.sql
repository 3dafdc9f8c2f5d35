-- Reconciliation reconciles the days that changed (docs/decisions.md, "Incremental reconciliation"). A daily run
-- re-reconciles the report periods that contain a day new receipts or new report files touched, not the history.
--
-- * reconcile_file: the receipt and sales input files whose data the stored lines already reflect (as
--   store_account_file is for clustering). Files not listed here are what changed since the last reconcile.
-- * reconcile_state: the settings those lines were made with (the time zone, the catalog's fingerprint). A change,
--   or no row yet, makes the next run reconcile every day.
-- * Indexes that let a window of days find its purchases, by purchase or cancellation time, and the lines next to
--   it (a timing status depends on the adjacent period's line), without reading the whole table.
CREATE TABLE reconcile_file (
    file_id  bigint PRIMARY KEY,
    run_id   bigint
);
COMMENT ON TABLE reconcile_file IS 'Receipt and sales files already reflected in reconciliation_line: the files '
    'not listed are the changes the next incremental reconcile reads.';

CREATE TABLE reconcile_state (
    name   text PRIMARY KEY,
    value  text NOT NULL
);
COMMENT ON TABLE reconcile_state IS 'Settings the stored reconciliation lines were made with (time zone, catalog '
    'fingerprint); a change makes the next reconcile cover every day.';

CREATE INDEX purchase_purchase_date_idx ON purchase (purchase_date);
CREATE INDEX purchase_cancellation_date_idx ON purchase (cancellation_date) WHERE cancellation_date IS NOT NULL;
CREATE INDEX reconciliation_line_period_end_idx ON reconciliation_line (period_end);
