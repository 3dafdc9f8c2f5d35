-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- The bank amount entered for a month and currency: the latest entry counts.
CREATE OR REPLACE VIEW month_end_bank AS
SELECT DISTINCT ON (fiscal_year, fiscal_month, currency) fiscal_year, fiscal_month, currency, amount, note,
    entered_at, id
FROM bank_deposit
ORDER BY fiscal_year, fiscal_month, currency, id DESC;
