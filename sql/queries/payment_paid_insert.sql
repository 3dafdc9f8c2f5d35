-- One amount a Payments summary says Apple paid: $1 the file, $2 the line, $3 the amount (decimal text), $4 its
-- currency, $5 the account it was paid to.
INSERT INTO payment_paid (file_id, line, amount, currency, paid_to) VALUES ($1, $2, $3::numeric, $4, $5)
