-- title: Reconciliation summary
-- description: Per period, app and currency: units on each side and their net variance (reported minus recorded);
--   over the lines that differ, Apple's customer price and proceeds and the customer amount our records say (blank
--   unless every recorded transaction of them carries a StoreKit 2 price); then the lines by status. A period and
--   app with money in several currencies has a row for each; the units and counts are on the first only, so every
--   column sums. The chart shows the variance per period. Answers: which days and apps need a look?
-- param: from date = 1970-01-01 -- only periods ending on or after this day
-- param: to date = 9999-12-31 -- only periods beginning on or before this day
-- param: window days = null -- only the last N days of history, by period end, ending on the newest line's; null or 0: all (run passes output.window)
-- chart: bar x=period y=variance series=app unit=units
-- sensitive: false

WITH lines AS (
    SELECT l.*, coalesce(l.app_bundle_id, '(none)') AS app,
           l.period_begin::text || CASE WHEN l.period_end = l.period_begin THEN ''
                                        ELSE ' – ' || l.period_end::text END AS period
    FROM reconciliation_line l
    WHERE l.period_end >= $1::date AND l.period_begin <= $2::date
      AND (coalesce($3::integer, 0) <= 0
           OR l.period_end > (SELECT max(n.period_end) FROM reconciliation_line n) - $3::integer)
),
counts AS (
    SELECT l.source, l.period, l.app, min(l.period_begin) AS period_begin,
           count(*) AS lines,
           count(*) FILTER (WHERE l.status = 'matched') AS matched,
           count(*) FILTER (WHERE l.status = 'variance') AS variance_lines,
           count(*) FILTER (WHERE l.status = 'timing') AS timing,
           count(*) FILTER (WHERE l.status = 'missing-in-report') AS missing_in_report,
           count(*) FILTER (WHERE l.status = 'missing-in-receipts') AS missing_in_receipts,
           count(*) FILTER (WHERE l.status = 'unknown-product') AS unknown_product,
           count(*) FILTER (WHERE l.status = 'parent-mismatch') AS parent_mismatch,
           sum(l.recorded_units) AS recorded_units,
           sum(l.reported_units) AS reported_units,
           sum(l.difference) AS variance,
           -- A differing line without a recorded amount leaves the sum unknown: none rather than a partial one.
           coalesce(bool_and(l.recorded_customer_amount IS NOT NULL) FILTER (WHERE l.status <> 'matched'), true)
               AS recorded_known
    FROM lines l
    GROUP BY l.source, l.period, l.app
),
money AS (
    SELECT l.source, l.period, l.app, m.currency,
           sum(m.amount) FILTER (WHERE m.kind = 'customer') AS customer_price,
           sum(m.amount) FILTER (WHERE m.kind = 'proceeds') AS proceeds,
           sum(m.amount) FILTER (WHERE m.kind = 'recorded') AS recorded_amount
    FROM lines l
    CROSS JOIN LATERAL (
        SELECT 'customer' AS kind, c.key AS currency, c.value::text::numeric AS amount
        FROM jsonb_each(l.customer_price) c
        UNION ALL
        SELECT 'proceeds', p.key, p.value::text::numeric FROM jsonb_each(l.proceeds) p
        UNION ALL
        SELECT 'recorded', a.key, a.value::text::numeric FROM jsonb_each(l.recorded_customer_amount) a
    ) m
    WHERE l.status <> 'matched'
    GROUP BY 1, 2, 3, 4
)
SELECT c.period,
       c.app,
       CASE WHEN m.is_first IS NOT FALSE THEN c.recorded_units END AS recorded_units,
       CASE WHEN m.is_first IS NOT FALSE THEN c.reported_units END AS reported_units,
       CASE WHEN m.is_first IS NOT FALSE THEN c.variance END AS variance,
       m.currency,
       m.customer_price AS differing_customer_price,
       m.proceeds AS differing_proceeds,
       CASE WHEN c.recorded_known THEN coalesce(m.recorded_amount, CASE WHEN m.currency IS NOT NULL THEN 0 END) END
           AS differing_recorded_amount,
       CASE WHEN m.is_first IS NOT FALSE THEN c.lines END AS lines,
       CASE WHEN m.is_first IS NOT FALSE THEN c.matched END AS matched,
       CASE WHEN m.is_first IS NOT FALSE THEN c.variance_lines END AS variance_lines,
       CASE WHEN m.is_first IS NOT FALSE THEN c.timing END AS timing,
       CASE WHEN m.is_first IS NOT FALSE THEN c.missing_in_report END AS missing_in_report,
       CASE WHEN m.is_first IS NOT FALSE THEN c.missing_in_receipts END AS missing_in_receipts,
       CASE WHEN m.is_first IS NOT FALSE THEN c.unknown_product END AS unknown_product,
       CASE WHEN m.is_first IS NOT FALSE THEN c.parent_mismatch END AS parent_mismatch,
       c.source
FROM counts c
LEFT JOIN LATERAL (
    SELECT n.currency, n.customer_price, n.proceeds, n.recorded_amount,
           row_number() OVER (ORDER BY n.currency) = 1 AS is_first
    FROM money n
    WHERE n.source = c.source AND n.period = c.period AND n.app = c.app
) m ON true
ORDER BY c.period_begin, c.period, c.app, c.source, m.currency
