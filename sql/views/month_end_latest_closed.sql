-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- The latest closed fiscal month: the last that ended on or before the newest day stored (a report's or a recorded
-- purchase's), as YYYY-MM; what `run` writes the month-end pack for.
CREATE OR REPLACE VIEW month_end_latest_closed AS
SELECT to_char(make_date(m.fiscal_year, m.fiscal_month, 1), 'YYYY-MM') AS month
FROM apple_fiscal_month m
WHERE m.end_date <= (
    SELECT max(d) FROM (
        SELECT max(end_date) AS d FROM sales_report_period
        UNION ALL SELECT max(day) FROM reconcile_recorded_day) x)
ORDER BY m.end_date DESC
LIMIT 1;
