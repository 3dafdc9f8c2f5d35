-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Paid: each region of the month's Payments summary (the file ingested last for the month), and Apple's rate from
-- the region's currency into the bank account's.
CREATE OR REPLACE VIEW month_end_paid AS
WITH chosen AS (
    SELECT DISTINCT ON (fiscal_year, fiscal_month) file_id, fiscal_year, fiscal_month
    FROM payment_summary
    WHERE fiscal_year IS NOT NULL
    ORDER BY fiscal_year, fiscal_month, file_id DESC
)
SELECT c.fiscal_year, c.fiscal_month, r.*
FROM chosen c
JOIN payment_region r ON r.file_id = c.file_id;
