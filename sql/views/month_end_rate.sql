-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Apple's exchange rates of a month, from its Payments summary: into the bank currency, and the bank currency itself
-- at 1. A month without a Payments summary has none (no outside rate feed).
CREATE OR REPLACE VIEW month_end_rate AS
(SELECT DISTINCT ON (fiscal_year, fiscal_month, currency) fiscal_year, fiscal_month, currency, bank_currency,
    exchange_rate AS rate
FROM month_end_paid
WHERE exchange_rate IS NOT NULL AND bank_currency IS NOT NULL
ORDER BY fiscal_year, fiscal_month, currency, line)
UNION ALL
SELECT DISTINCT fiscal_year, fiscal_month, bank_currency, bank_currency, 1::numeric
FROM month_end_paid
WHERE bank_currency IS NOT NULL
  AND NOT EXISTS (
      SELECT 1 FROM month_end_paid o
      WHERE o.fiscal_year = month_end_paid.fiscal_year AND o.fiscal_month = month_end_paid.fiscal_month
        AND o.currency = month_end_paid.bank_currency);
