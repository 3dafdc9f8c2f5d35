-- Our side of reconciliation, stored per day (docs/decisions.md, "Incremental reconciliation"). A report period's
-- recorded units are the sum of its days; keeping the days lets a daily run recount only the days (and products) new
-- receipts changed and rebuild a period's lines from the stored days, instead of reading every purchase of every
-- period around a changed day. Renewals a subscriber's device posts weeks late scatter a day's changes over months.
CREATE TABLE reconcile_recorded_day (
    day           date NOT NULL,
    product_id    text NOT NULL,
    app           text,
    currency      text,
    units         integer NOT NULL,
    trials        integer NOT NULL,
    amount_milli  numeric,
    unpriced      integer NOT NULL
);
CREATE INDEX reconcile_recorded_day_day_idx ON reconcile_recorded_day (day, product_id);
COMMENT ON TABLE reconcile_recorded_day IS 'Recorded sales and refunds per day (in the reconcile time zone), '
    'product, app and currency: what reconciliation_line.recorded_units sums over a period.';

-- Lines made before this table existed have no days behind them: the next reconcile covers every day.
DELETE FROM reconcile_state;

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON reconcile_recorded_day TO iap_audit_analyst;
    END IF;
END
$$;
