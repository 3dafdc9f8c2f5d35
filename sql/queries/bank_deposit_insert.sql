-- Records the amount that reached the bank for an Apple fiscal month (the latest entry for a month and currency
-- counts; earlier ones stay). $1 fiscal year, $2 fiscal month, $3 currency, $4 amount (decimal text), $5 a note.
INSERT INTO bank_deposit (fiscal_year, fiscal_month, currency, amount, note)
VALUES ($1, $2, $3, $4::numeric, $5)
