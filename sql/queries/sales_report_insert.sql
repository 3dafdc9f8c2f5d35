-- Records a stored sales or finance report: its layout and header, what its file name says, and how many of its
-- rows were stored and rejected. $1 the file, $2 the layout, $3 the column names (a text[] literal), $4 to $10 the
-- file name's kind, vendor number, frequency, year, month, day and region, $11 rows stored, $12 rows rejected.
INSERT INTO sales_report (file_id, layout, column_names, name_kind, vendor_number, frequency, name_year,
    name_month, name_day, region, rows_stored, rows_rejected)
VALUES ($1, $2, $3::text[], $4, $5, $6, $7, $8, $9, $10, $11, $12)
