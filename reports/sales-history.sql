-- title: Sales history
-- description: What Apple's Sales and Trends reports say was sold, per report period, product, product type and
--   currency: units, customer price (in the customer's currency) and proceeds (in the proceeds currency), with the
--   report rows and files they came from. Every currency has rows of its own, so every column sums. Answers: what
--   did Apple report, before any comparison with our records?
-- param: from date = 1970-01-01 -- only periods ending on or after this day
-- param: to date = 9999-12-31 -- only periods beginning on or before this day
-- param: vendor_identifier text = null -- only this SKU or product id
-- param: window days = null -- only the last N days of history, by period end, ending on the newest reported period's; null or 0: all (run passes output.window)
-- sensitive: false

SELECT r.begin_date AS period_begin,
       r.end_date AS period_end,
       r.vendor_identifier,
       r.product_type_identifier,
       r.product_type,
       sum(r.units) AS units,
       r.customer_currency,
       sum(r.units * abs(r.customer_price)) AS customer_price,
       r.proceeds_currency,
       sum(coalesce(r.extended_proceeds, r.units * r.proceeds_per_unit)) AS proceeds,
       min(r.parent_identifier) AS parent_identifier,
       count(*) AS report_rows,
       count(DISTINCT r.file_id) AS files
FROM sales_report_row r
JOIN sales_report s ON s.file_id = r.file_id AND s.layout LIKE 'sales-%'
WHERE r.end_date >= $1::date AND r.begin_date <= $2::date AND ($3::text IS NULL OR r.vendor_identifier = $3)
  AND (coalesce($4::integer, 0) <= 0
       OR r.end_date > (SELECT max(p.end_date) FROM sales_report_period p) - $4::integer)
GROUP BY r.begin_date, r.end_date, r.vendor_identifier, r.product_type_identifier, r.product_type,
         r.customer_currency, r.proceeds_currency
ORDER BY r.begin_date, r.end_date, r.vendor_identifier, r.product_type_identifier, r.customer_currency,
         r.proceeds_currency
