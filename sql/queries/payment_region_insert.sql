-- One region line of a Payments summary, typed (its raw row is in sales_report_row by the same file id and line).
-- $1 the file, $2 the line, $3 region, $4 currency, $5 units sold, $6 earned, $7 pre-tax subtotal, $8 input tax,
-- $9 adjustments, $10 withholding tax, $11 total owed, $12 exchange rate, $13 proceeds, $14 the bank's currency;
-- amounts as decimal text.
INSERT INTO payment_region (file_id, line, region, currency, units_sold, earned, pre_tax_subtotal,
    input_tax, adjustments, withholding_tax, total_owed, exchange_rate, proceeds, bank_currency)
VALUES ($1, $2, $3, $4, $5, $6::numeric, $7::numeric, $8::numeric, $9::numeric, $10::numeric,
    $11::numeric, $12::numeric, $13::numeric, $14)
