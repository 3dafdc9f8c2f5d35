-- Records a Payments summary's header: $1 the file, $2 and $3 the fiscal year and month it pays, $4 its title.
INSERT INTO payment_summary (file_id, fiscal_year, fiscal_month, title) VALUES ($1, $2, $3, $4)
