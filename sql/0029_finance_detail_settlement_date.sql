-- The detailed financial report (FINANCE_DETAIL, region Z1; layout 'finance-detail') has one row per purchase, dated
-- by its Transaction Date (stored as begin_date and end_date, as a daily sales row is) and its Settlement Date, kept
-- here so a finance team can ask which purchases a fiscal month settled. NULL for every other layout.
-- Reconciliation never counts finance-detail rows: the consolidated and per-region financial reports hold the same
-- sales (docs/decisions.md, "The detailed financial report").
ALTER TABLE sales_report_row ADD COLUMN settlement_date date;
COMMENT ON COLUMN sales_report_row.settlement_date IS 'A detailed financial report row''s Settlement Date (layout '
    'finance-detail); NULL for other layouts.';
