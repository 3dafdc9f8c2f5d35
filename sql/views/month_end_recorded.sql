-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Recorded: per fiscal month, day, product, app and currency, from reconcile_recorded_day (the reconcile time zone's
-- days, Pacific by default, as Apple's). A day's transactions without a price (every verifyReceipt one) are
-- estimated at Apple's customer price for that product and day: its reported amount per unit, by currency, from
-- the Sales and Trends line covering the day (basis 'estimated'); without such a line they stay 'unpriced'.
CREATE OR REPLACE VIEW month_end_recorded AS
-- NOT MATERIALIZED: a month's question reads that month's days, not every month's (6 s to 20 ms at a year of
-- 50 products in 5 currencies).
-- The fiscal calendar once (MATERIALIZED: joined as a subquery, the planner may recompute it for every day read, and
-- a 10 ms month took 0.3 s at 20,000 entries), and only its months the stored days reach: of 2008 to 2060, each day
-- read was compared with 636. A month's filter still reaches the days through the index on day.
WITH months AS MATERIALIZED (
    SELECT fiscal_year, fiscal_month, begin_date, end_date
    FROM apple_fiscal_month
    WHERE end_date >= (SELECT min(day) FROM reconcile_recorded_day)
      AND begin_date <= (SELECT max(day) FROM reconcile_recorded_day)
),
days AS NOT MATERIALIZED (
    SELECT m.fiscal_year, m.fiscal_month, d.*
    FROM reconcile_recorded_day d
    JOIN months m ON d.day BETWEEN m.begin_date AND m.end_date
),
priced AS NOT MATERIALIZED (
    SELECT fiscal_year, fiscal_month, day, product_id, app, currency, units, amount_milli / 1000.0 AS amount,
        'recorded'::text AS basis
    FROM days
    WHERE currency IS NOT NULL AND amount_milli IS NOT NULL AND unpriced = 0
),
unpriced AS NOT MATERIALIZED (
    -- A row with some unpriced transactions is estimated whole: its recorded amount would be partial.
    SELECT d.fiscal_year, d.fiscal_month, d.day, d.product_id, d.app, d.units
    FROM days d
    WHERE d.currency IS NULL OR d.amount_milli IS NULL OR d.unpriced > 0
),
apple_price AS NOT MATERIALIZED (
    SELECT u.fiscal_year, u.fiscal_month, u.day, u.product_id, u.app, u.units, c.key AS currency,
        c.value::numeric / nullif(l.reported_units, 0) AS unit_price
    FROM unpriced u
    JOIN reconciliation_line l ON l.source = 'sales' AND u.day BETWEEN l.period_begin AND l.period_end
        AND l.vendor_identifier = u.product_id AND coalesce(l.app_bundle_id, '') = coalesce(u.app, '')
        AND l.reported_units <> 0
    CROSS JOIN LATERAL jsonb_each_text(l.customer_price) AS c
)
SELECT fiscal_year, fiscal_month, day, product_id, app, currency, units, amount, basis FROM priced
UNION ALL
-- Apple's currencies split the day's units by its own mix: units × (Apple's amount in the currency ÷ its units).
SELECT fiscal_year, fiscal_month, day, product_id, app, currency, units, round(units * unit_price, 2), 'estimated'
FROM apple_price
UNION ALL
SELECT u.fiscal_year, u.fiscal_month, u.day, u.product_id, u.app, NULL, u.units, NULL, 'unpriced'
FROM unpriced u
WHERE NOT EXISTS (
    SELECT 1 FROM apple_price a
    WHERE a.day = u.day AND a.product_id = u.product_id AND coalesce(a.app, '') = coalesce(u.app, ''));
