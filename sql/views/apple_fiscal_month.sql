-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- A fiscal month's days: as Apple's stored financial reports of that month state them where there are any (their
-- file names carry the month: 45545510_0914_CH is September 2014), else as the calendar computes them.
CREATE OR REPLACE VIEW apple_fiscal_month AS
WITH stated AS (
    SELECT s.name_year AS fiscal_year, s.name_month AS fiscal_month, min(p.begin_date) AS begin_date,
        max(p.end_date) AS end_date
    FROM sales_report s
    JOIN sales_report_period p ON p.file_id = s.file_id
    WHERE s.layout = 'financial' AND s.name_year IS NOT NULL AND s.name_month IS NOT NULL
    GROUP BY s.name_year, s.name_month
)
SELECT c.fiscal_year, c.fiscal_month, coalesce(s.begin_date, c.begin_date) AS begin_date,
    coalesce(s.end_date, c.end_date) AS end_date,
    CASE WHEN s.fiscal_year IS NULL THEN 'computed' ELSE 'financial reports' END AS dates_from
FROM apple_fiscal_month_computed c
LEFT JOIN stated s USING (fiscal_year, fiscal_month);
