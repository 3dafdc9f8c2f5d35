-- title: Reconciliation
-- description: One row per period, app, product (vendor identifier) and currency: units we recorded against units
--   Apple reported, the difference (reported minus recorded), its status, and in the row's currency Apple's
--   customer price and proceeds, the customer amount our records say (StoreKit 2 prices; blank unless every
--   recorded transaction of the line carries one) and the amount difference (Apple's customer price minus ours).
--   A line with money in several currencies has a row for each; its units are on the first only, so every column
--   sums. Answers: where do our records and Apple's reports disagree, and by how much?
-- param: from date = 1970-01-01 -- only periods ending on or after this day
-- param: to date = 9999-12-31 -- only periods beginning on or before this day
-- param: status text = null -- only this status, e.g. variance or missing-in-receipts
-- param: window days = null -- only the last N days of history, by period end, ending on the newest line's; null or 0: all (run passes output.window)
-- sensitive: false

-- Money is numbers with the currency in its own column, so a spreadsheet adds each currency up (a pivot, or SUMIF);
-- units on a line's first currency row only, so summing them counts every line once.
SELECT l.period_begin,
       l.period_end,
       l.app_bundle_id AS app,
       l.vendor_identifier,
       l.status,
       CASE WHEN m.is_first IS NOT FALSE THEN l.recorded_units END AS recorded_units,
       CASE WHEN m.is_first IS NOT FALSE THEN l.reported_units END AS reported_units,
       CASE WHEN m.is_first IS NOT FALSE THEN l.difference END AS difference,
       m.currency,
       m.customer_price,
       m.proceeds,
       m.recorded_customer_amount,
       m.customer_amount_difference,
       l.parent_identifier,
       CASE WHEN m.is_first IS NOT FALSE THEN l.recorded_trials END AS recorded_trials,
       l.source,
       l.frequency,
       l.time_zone,
       l.run_id
FROM reconciliation_line l
LEFT JOIN LATERAL (
    SELECT c.currency,
           row_number() OVER (ORDER BY c.currency) = 1 AS is_first,
           (l.customer_price ->> c.currency)::numeric AS customer_price,
           (l.proceeds ->> c.currency)::numeric AS proceeds,
           (l.recorded_customer_amount ->> c.currency)::numeric AS recorded_customer_amount,
           -- Known only when every recorded transaction of the line carries a price; a currency one side lacks is 0.
           CASE WHEN l.recorded_customer_amount IS NOT NULL THEN
               coalesce((l.customer_price ->> c.currency)::numeric, 0)
               - coalesce((l.recorded_customer_amount ->> c.currency)::numeric, 0)
           END AS customer_amount_difference
    FROM (SELECT jsonb_object_keys(l.customer_price)
          UNION SELECT jsonb_object_keys(l.proceeds)
          UNION SELECT jsonb_object_keys(coalesce(l.recorded_customer_amount, '{}'))) c (currency)
) m ON true
WHERE l.period_end >= $1::date AND l.period_begin <= $2::date AND ($3::text IS NULL OR l.status = $3)
  AND (coalesce($4::integer, 0) <= 0
       OR l.period_end > (SELECT max(n.period_end) FROM reconciliation_line n) - $4::integer)
ORDER BY l.period_begin, l.period_end, l.app_bundle_id, l.vendor_identifier, l.source, m.currency
