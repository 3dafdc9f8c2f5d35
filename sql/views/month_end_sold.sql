-- readers: iap_audit_analyst
-- Month-end in money (issue 33; sql/0027_month_end_functions.sql has the functions that read it).
-- Sold: per fiscal month, Sales and Trends line and currency (reconciliation_line, source sales: the finest report
-- of each day, the file ingested last). A line belongs to the fiscal month its first day falls in.
CREATE OR REPLACE VIEW month_end_sold AS
SELECT m.fiscal_year, m.fiscal_month, l.id AS line_id, l.period_begin, l.period_end, l.vendor_identifier,
    l.app_bundle_id, l.reported_units, l.status, m2.kind, m2.currency, m2.amount
FROM reconciliation_line l
JOIN apple_fiscal_month m ON l.period_begin BETWEEN m.begin_date AND m.end_date
CROSS JOIN LATERAL (
    SELECT 'customer'::text AS kind, c.key AS currency, c.value::numeric AS amount FROM jsonb_each_text(l.customer_price) c
    UNION ALL
    SELECT 'proceeds', p.key, p.value::numeric FROM jsonb_each_text(l.proceeds) p
) m2
WHERE l.source = 'sales';
