-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Apple's fiscal months as its calendar makes them (AppleFiscalCalendar in Swift): 5 + 4 + 4 weeks a quarter from
-- the Sunday after the last Saturday of September; a 53-week year gives its extra week to December. Named like the
-- Payments summary names them: "October, 2014" is (2014, 10), the first month of fiscal 2015.
CREATE OR REPLACE VIEW apple_fiscal_month_computed AS
WITH years AS (
    SELECT fy, apple_fiscal_year_end(fy - 1) + 1 AS starts,
        (apple_fiscal_year_end(fy) - apple_fiscal_year_end(fy - 1)) / 7 AS weeks
    FROM generate_series(2008, 2060) AS fy
),
months AS (
    SELECT y.fy, p.position, y.starts,
        CASE WHEN p.position % 3 = 0 THEN 5 ELSE 4 END
            + CASE WHEN p.position = 2 AND y.weeks = 53 THEN 1 ELSE 0 END AS weeks
    FROM years y CROSS JOIN generate_series(0, 11) AS p (position)
)
SELECT CASE WHEN position < 3 THEN fy - 1 ELSE fy END AS fiscal_year, (position + 9) % 12 + 1 AS fiscal_month,
    starts + 7 * (sum(weeks) OVER w - weeks)::integer AS begin_date,
    starts + 7 * (sum(weeks) OVER w)::integer - 1 AS end_date
FROM months
WINDOW w AS (PARTITION BY fy ORDER BY position);
