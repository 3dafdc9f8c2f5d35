-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Owed: every row of the month's financial reports (in-app purchases and everything else Apple sold for us), per
-- vendor and region the file ingested last, Extended Partner Share (Partner Share × Quantity where it is blank).
CREATE OR REPLACE VIEW month_end_owed AS
WITH chosen AS (
    SELECT DISTINCT ON (s.name_year, s.name_month, coalesce(s.vendor_number, ''), coalesce(s.region, ''))
        s.file_id, s.name_year AS fiscal_year, s.name_month AS fiscal_month, s.region
    FROM sales_report s
    WHERE s.layout = 'financial' AND s.name_year IS NOT NULL AND s.name_month IS NOT NULL
    ORDER BY s.name_year, s.name_month, coalesce(s.vendor_number, ''), coalesce(s.region, ''), s.file_id DESC
)
SELECT c.fiscal_year, c.fiscal_month, c.region, r.file_id, r.line, r.vendor_identifier, r.product_type,
    r.units, r.sales_or_return, r.proceeds_currency AS currency,
    coalesce(r.extended_proceeds, r.units * r.proceeds_per_unit) AS amount
FROM chosen c
JOIN sales_report_row r ON r.file_id = c.file_id;
