-- title: Reconciliation
-- description: One line per period, product (vendor identifier) and app: units we recorded against units Apple
--   reported, the difference (reported minus recorded), its status, Apple's customer price and proceeds by
--   currency, and the customer amount our records say by currency (StoreKit 2 prices; blank unless every recorded
--   transaction of the line carries one). Answers: where do our records and Apple's reports disagree, and by how
--   much?
-- param: from date = 1970-01-01 -- only periods ending on or after this day
-- param: to date = 9999-12-31 -- only periods beginning on or before this day
-- param: status text = null -- only this status, e.g. variance or missing-in-receipts
-- param: window days = null -- only the last N days of history, by period end, ending on the newest line's; null or 0: all (run passes output.window)
-- sensitive: false

SELECT l.source,
       l.frequency,
       l.period_begin,
       l.period_end,
       l.vendor_identifier,
       l.app_bundle_id AS app,
       l.parent_identifier,
       l.recorded_units,
       l.reported_units,
       l.difference,
       l.status,
       l.recorded_trials,
       (SELECT string_agg(c.key || ' ' || c.value::text, '; ' ORDER BY c.key)
        FROM jsonb_each(l.customer_price) c) AS customer_price,
       (SELECT string_agg(a.key || ' ' || a.value::text, '; ' ORDER BY a.key)
        FROM jsonb_each(l.recorded_customer_amount) a) AS recorded_customer_amount,
       (SELECT string_agg(p.key || ' ' || p.value::text, '; ' ORDER BY p.key)
        FROM jsonb_each(l.proceeds) p) AS proceeds,
       l.time_zone,
       l.run_id
FROM reconciliation_line l
WHERE l.period_end >= $1::date AND l.period_begin <= $2::date AND ($3::text IS NULL OR l.status = $3)
  AND (coalesce($4::integer, 0) <= 0
       OR l.period_end > (SELECT max(n.period_end) FROM reconciliation_line n) - $4::integer)
ORDER BY l.source, l.period_begin, l.period_end, l.app_bundle_id, l.vendor_identifier
