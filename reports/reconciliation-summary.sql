-- title: Reconciliation summary
-- description: Per period and app: reconciliation lines by status, units on each side, their net variance
--   (reported minus recorded), and Apple's customer price and proceeds by currency over the lines that differ,
--   with the customer amount our records say over the same lines (blank unless every recorded transaction of
--   them carries a StoreKit 2 price). The chart shows the variance per period. Answers: which days and apps need a
--   look?
-- param: from date = 1970-01-01 -- only periods ending on or after this day
-- param: to date = 9999-12-31 -- only periods beginning on or before this day
-- param: window days = null -- only the last N days of history, by period end, ending on the newest line's; null or 0: all (run passes output.window)
-- chart: bar x=period y=variance series=app
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
money AS (
    SELECT l.source, l.period, l.app, m.kind, m.currency, sum(m.amount) AS amount
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
    GROUP BY 1, 2, 3, 4, 5
),
money_text AS (
    SELECT source, period, app,
           string_agg(currency || ' ' || amount::text, '; ' ORDER BY currency) FILTER (WHERE kind = 'customer')
               AS customer_price,
           string_agg(currency || ' ' || amount::text, '; ' ORDER BY currency) FILTER (WHERE kind = 'proceeds')
               AS proceeds,
           string_agg(currency || ' ' || amount::text, '; ' ORDER BY currency) FILTER (WHERE kind = 'recorded')
               AS recorded_amount
    FROM money
    GROUP BY source, period, app
)
SELECT l.source,
       l.period,
       l.app,
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
       min(t.customer_price) AS differing_customer_price,
       min(t.proceeds) AS differing_proceeds,
       -- A differing line without a recorded amount leaves the sum unknown: none rather than a partial one.
       CASE WHEN bool_and(l.recorded_customer_amount IS NOT NULL) FILTER (WHERE l.status <> 'matched') THEN
           min(t.recorded_amount)
       END AS differing_recorded_amount
FROM lines l
LEFT JOIN money_text t ON t.source = l.source AND t.period = l.period AND t.app = l.app
GROUP BY l.source, l.period, l.app
ORDER BY l.source, l.period, l.app
