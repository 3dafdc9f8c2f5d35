-- What Apple's Payments summaries say they paid for a fiscal month in a bank currency, and an entered bank amount's
-- difference from it; no row when no Payments summary of the month paid in that currency is stored. $1 fiscal year,
-- $2 fiscal month, $3 the bank currency, $4 the bank amount (decimal text).
SELECT sum(proceeds)::text AS apple_paid, ($4::numeric - sum(proceeds))::text AS difference
FROM month_end_paid
WHERE fiscal_year = $1 AND fiscal_month = $2 AND bank_currency = $3
HAVING count(*) > 0
