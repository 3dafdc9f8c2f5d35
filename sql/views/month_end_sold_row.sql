-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Sales and Trends rows behind a fiscal month's sold figures, per report period, vendor and region the file ingested
-- last (as reconciliation chooses them), in-app purchase sales only: the refunds among them for the bridge.
CREATE OR REPLACE VIEW month_end_sold_row AS
-- The fiscal calendar once (joined as a subquery, the planner recomputed it for every row: 0.4 s a month at a year of
-- daily reports), and only its months the stored rows reach, not all 636 of 2008 to 2060.
WITH months AS MATERIALIZED (
    SELECT fiscal_year, fiscal_month, begin_date, end_date
    FROM apple_fiscal_month
    WHERE end_date >= (SELECT min(begin_date) FROM sales_report_row)
      AND begin_date <= (SELECT max(begin_date) FROM sales_report_row)
),
chosen AS (
    SELECT DISTINCT ON (coalesce(s.vendor_number, ''), coalesce(s.region, ''), p.begin_date, p.end_date)
        s.file_id, p.begin_date, p.end_date
    FROM sales_report s
    JOIN sales_report_period p ON p.file_id = s.file_id
    WHERE s.layout LIKE 'sales-%'
    ORDER BY coalesce(s.vendor_number, ''), coalesce(s.region, ''), p.begin_date, p.end_date, s.file_id DESC
)
SELECT m.fiscal_year, m.fiscal_month, r.file_id, r.line, r.begin_date, r.end_date, r.vendor_identifier, r.units,
    r.customer_currency, r.units * abs(r.customer_price) AS customer_amount, r.proceeds_currency,
    coalesce(r.extended_proceeds, r.units * r.proceeds_per_unit) AS proceeds_amount
FROM chosen c
JOIN sales_report_row r ON r.file_id = c.file_id AND r.begin_date = c.begin_date AND r.end_date = c.end_date
JOIN months m ON r.begin_date BETWEEN m.begin_date AND m.end_date
WHERE r.product_type = 'inAppPurchase'
  -- Only periods reconciliation chose (the finest report of each day): a daily row, not also the week around it.
  AND EXISTS (
      SELECT 1 FROM reconciliation_line l
      WHERE l.source = 'sales' AND l.period_begin = r.begin_date AND l.period_end = r.end_date);
