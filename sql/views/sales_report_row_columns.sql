-- A sales or financial report row's full column set by name (sql/0002): column_values keyed by the file's header.
-- Not granted to the analyst role: it shows every column of the rows, which the role does not read.
CREATE OR REPLACE VIEW sales_report_row_columns AS
SELECT r.file_id, r.line, jsonb_object(s.column_names[1:cardinality(r.column_values)], r.column_values) AS columns
FROM sales_report_row r
JOIN sales_report s ON s.file_id = r.file_id;
