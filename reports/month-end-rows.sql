-- title: Month-end rows
-- description: The rows behind each figure of the month-end bridge (report month-end-bridge), one fiscal month: for
--   each step (step_order and step, as the bridge names them) the rows whose amounts, in their own currency, sum per
--   currency to the step's figure before Apple's rate converts it (rate). A total's rows are what it sums; a cause's
--   rows are the two sides it lies between, the side taken away negative. Sources: recorded days (month_end_recorded),
--   Sales and Trends lines (reconciliation_line), financial report and Payments summary rows (file and line), the
--   bank amount entered. run writes one page per figure of its pack, linked from the bridge.
-- param: month month = null -- the fiscal month as YYYY-MM (2026-09: September, 2026); default: the latest closed one (what run writes)
-- param: currency text = null -- the reporting currency (ISO 4217) the rate column converts into; default: the month's bank account currency
-- param: step_order integer = null -- only this step's rows (the bridge's step_order); default: every step
-- sensitive: false

WITH m AS (
    SELECT f.*, make_date(f.fiscal_year, f.fiscal_month, 1) AS first_day,
        (make_date(f.fiscal_year, f.fiscal_month, 1) + interval '1 month - 1 day')::date AS last_day, t.v AS label
    -- The parameter's kind (month) was checked before the query: YYYY-MM or NULL.
    FROM (SELECT coalesce($1::text, (SELECT month FROM month_end_latest_closed)) AS v) t
    JOIN apple_fiscal_month f ON (f.fiscal_year, f.fiscal_month)
        = (split_part(t.v, '-', 1)::integer, split_part(t.v, '-', 2)::integer)
),
reporting AS (
    SELECT coalesce(upper($2::text), (SELECT min(p.bank_currency) FROM month_end_paid p JOIN m USING (fiscal_year,
        fiscal_month))) AS currency
),
-- Recorded days of the calendar month and of the fiscal month (a day may be in both).
recorded AS (
    SELECT r.*, r.day BETWEEN m.first_day AND m.last_day AS in_calendar,
        (r.fiscal_year, r.fiscal_month) = (m.fiscal_year, m.fiscal_month) AS in_fiscal
    FROM month_end_recorded r, m
    WHERE r.currency IS NOT NULL
      AND (r.day BETWEEN m.first_day AND m.last_day OR r.day BETWEEN m.begin_date AND m.end_date)
      -- Both months' days as one range the index reads, before the view joins anything (all of history without).
      AND r.day BETWEEN (SELECT least(first_day, begin_date) FROM m) AND (SELECT greatest(last_day, end_date) FROM m)
),
-- The Sales and Trends lines of the fiscal month, and the recorded days each one covers (as month_end_bridge pairs
-- them: a recorded day counted once per line covering it).
lines AS (
    SELECT l.* FROM reconciliation_line l, m
    WHERE l.source = 'sales' AND l.period_begin BETWEEN m.begin_date AND m.end_date
),
line_recorded AS (
    SELECT l.id, r.day, r.product_id, r.app, r.currency, r.basis, r.units, r.amount
    FROM lines l
    JOIN month_end_recorded r ON r.day BETWEEN l.period_begin AND l.period_end AND r.product_id = l.vendor_identifier
        AND coalesce(r.app, '') = coalesce(l.app_bundle_id, '')
    WHERE r.currency IS NOT NULL
      AND r.day BETWEEN (SELECT min(period_begin) FROM lines) AND (SELECT max(period_end) FROM lines)
),
-- The lines under each cause of step 50, as the bridge chooses them (the function both read).
caused AS (
    SELECT c.* FROM m CROSS JOIN LATERAL month_end_line_cause(m.fiscal_year, m.fiscal_month) c
    WHERE c.cause IS NOT NULL
),
sold AS (
    SELECT s.* FROM month_end_sold s JOIN m USING (fiscal_year, fiscal_month)
),
owed AS (
    SELECT o.*, o.product_type = 'inAppPurchase' AS in_app,
        o.product_type = 'inAppPurchase' AND (o.units < 0 OR o.sales_or_return = 'R') AS is_return
    FROM month_end_owed o JOIN m USING (fiscal_year, fiscal_month)
),
sold_refunds AS (
    SELECT s.* FROM month_end_sold_row s JOIN m USING (fiscal_year, fiscal_month)
    WHERE s.units < 0 AND s.begin_date BETWEEN (SELECT begin_date FROM m) AND (SELECT end_date FROM m)
),
paid AS (
    SELECT p.*, p.currency IN (SELECT currency FROM owed) AS owed_too
    FROM month_end_paid p JOIN m USING (fiscal_year, fiscal_month)
),
bank AS (
    SELECT b.* FROM month_end_bank b JOIN m USING (fiscal_year, fiscal_month)
),
files AS (
    SELECT id, regexp_replace(path, '^.*/', '') AS name FROM input_file
    WHERE id IN (SELECT file_id FROM owed UNION SELECT file_id FROM sold_refunds UNION SELECT file_id FROM paid)
),
rows (step_order, step, source, reference, day, product, units, currency, amount, file_id, line) AS (
    SELECT 10, 'recorded (cal.)', 'recorded ' || basis, NULL, day::text, product_id, units, currency, amount,
        NULL::bigint, NULL::integer
    FROM recorded WHERE in_calendar
    UNION ALL
    -- The fiscal month's days less the calendar month's: a day in both cancels out and is left out.
    SELECT 20, 'calendar/fiscal', 'recorded ' || basis, CASE WHEN in_fiscal THEN 'fiscal month only'
        ELSE 'calendar month only' END, day::text, product_id, units, currency,
        CASE WHEN in_fiscal THEN amount ELSE -amount END, NULL::bigint, NULL::integer
    FROM recorded WHERE in_calendar <> in_fiscal
    UNION ALL
    SELECT 30, 'recorded', 'recorded ' || basis, NULL, day::text, product_id, units, currency, amount,
        NULL::bigint, NULL::integer
    FROM recorded WHERE in_fiscal
    UNION ALL
    -- Recorded money no line covers: each recorded day counted as often as lines cover it, less once if it is in the
    -- fiscal month; what is left is what no line accounts for.
    SELECT 40, 'no sales report', 'recorded ' || basis, 'covered by ' || covered || ' line(s)', day::text,
        product_id, units, currency, amount * (covered - fiscal), NULL::bigint, NULL::integer
    FROM (
        SELECT day, product_id, app, currency, basis, units, amount, sum(fiscal) AS fiscal, sum(covered) AS covered
        FROM (SELECT day, product_id, app, currency, basis, units, amount, 1 AS fiscal, 0 AS covered
              FROM recorded WHERE in_fiscal
              UNION ALL
              SELECT day, product_id, app, currency, basis, units, amount, 0, 1 FROM line_recorded) x
        GROUP BY day, product_id, app, currency, basis, units, amount
    ) x
    WHERE covered <> fiscal
    UNION ALL
    -- Each line's Apple customer amount less what we recorded on its days, per currency.
    SELECT 50, c.step, 'reconciliation line', 'line ' || l.id || ' (' || l.status || ')', l.period_begin::text
        || CASE WHEN l.period_end <> l.period_begin THEN ' – ' || l.period_end ELSE '' END, l.vendor_identifier,
        l.reported_units - l.recorded_units, c.currency, c.difference, NULL::bigint, NULL::integer
    FROM caused c JOIN lines l USING (id)
    UNION ALL
    SELECT 60, 'sold (customer)', 'reconciliation line', 'line ' || line_id, period_begin::text, vendor_identifier,
        reported_units, currency, amount, NULL::bigint, NULL::integer
    FROM sold WHERE kind = 'customer'
    UNION ALL
    -- Apple's share: each line's proceeds less its customer amount.
    SELECT 70, 'Apple''s share', 'reconciliation line', 'line ' || line_id, period_begin::text, vendor_identifier,
        reported_units, currency, sum(CASE WHEN kind = 'proceeds' THEN amount ELSE -amount END),
        NULL::bigint, NULL::integer
    FROM sold GROUP BY line_id, period_begin, vendor_identifier, reported_units, currency
    UNION ALL
    SELECT 80, 'sold (proceeds)', 'reconciliation line', 'line ' || line_id, period_begin::text, vendor_identifier,
        reported_units, currency, amount, NULL::bigint, NULL::integer
    FROM sold WHERE kind = 'proceeds'
    UNION ALL
    -- Late returns: the financial reports' in-app returns less the Sales and Trends refunds.
    SELECT 90, 'late returns', 'financial report return', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line
    FROM owed WHERE is_return
    UNION ALL
    SELECT 90, 'late returns', 'sales report refund', NULL, begin_date::text, vendor_identifier, units,
        proceeds_currency, -proceeds_amount, file_id, line
    FROM sold_refunds
    UNION ALL
    -- Sales against finance, returns set apart (they are late returns): in-app sales owed less proceeds sold.
    SELECT 100, 'sales vs finance', 'financial report', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line
    FROM owed WHERE in_app AND NOT is_return
    UNION ALL
    SELECT 100, 'sales vs finance', 'reconciliation line', 'line ' || line_id, period_begin::text, vendor_identifier,
        reported_units, currency, -amount, NULL::bigint, NULL::integer
    FROM sold WHERE kind = 'proceeds'
    UNION ALL
    SELECT 100, 'sales vs finance', 'sales report refund', NULL, begin_date::text, vendor_identifier, units,
        proceeds_currency, proceeds_amount, file_id, line
    FROM sold_refunds
    UNION ALL
    SELECT 110, 'owed (in-app)', 'financial report', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line
    FROM owed WHERE in_app
    UNION ALL
    SELECT 120, 'other products', 'financial report', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line
    FROM owed WHERE NOT in_app
    UNION ALL
    SELECT 130, 'owed', 'financial report', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line FROM owed
    UNION ALL
    -- Earned against owed, for the currencies the Payments summary names.
    SELECT 140, 'Earned vs owed', 'Payments summary: Earned', region, NULL, NULL, NULL, currency, earned,
        file_id, line FROM paid
    UNION ALL
    SELECT 140, 'Earned vs owed', 'financial report', NULL, NULL, vendor_identifier, units, currency, -amount,
        file_id, line
    FROM owed WHERE currency IN (SELECT currency FROM paid)
    UNION ALL
    -- Each region's Payments summary figure of the step: Input Tax, Adjustments, Withholding Tax (a deduction),
    -- Total Owed less its parts, and Total Owed.
    SELECT f.step_order, f.step, 'Payments summary: ' || f.label, p.region, NULL, NULL, NULL, p.currency, f.amount,
        p.file_id, p.line
    FROM paid p
    CROSS JOIN LATERAL (VALUES
        (150, 'input tax', 'Input Tax', p.input_tax),
        (160, 'adjustments', 'Adjustments', p.adjustments),
        (170, 'withholding tax', 'Withholding Tax', -abs(p.withholding_tax)),
        (175, 'Apple''s sums', 'Total Owed less its parts',
            p.total_owed - (p.earned + p.input_tax + p.adjustments - abs(p.withholding_tax))),
        (180, 'total owed', 'Total Owed', p.total_owed)
    ) f (step_order, step, label, amount)
    UNION ALL
    -- A currency the Payments summary does not name: its total owed is what the financial reports owe.
    SELECT 180, 'total owed', 'financial report', NULL, NULL, vendor_identifier, units, currency, amount,
        file_id, line
    FROM owed WHERE currency NOT IN (SELECT currency FROM paid)
    UNION ALL
    -- Exchange rates: what Apple paid, less each region's Total Owed (converted at the month's rates).
    SELECT 190, 'exchange rates', 'Payments summary: Proceeds', region, NULL, NULL, NULL, bank_currency, proceeds,
        file_id, line
    FROM paid WHERE proceeds IS NOT NULL AND exchange_rate IS NOT NULL
    UNION ALL
    SELECT 190, 'exchange rates', 'Payments summary: Total Owed', region, NULL, NULL, NULL, currency, -total_owed,
        file_id, line
    FROM paid WHERE proceeds IS NOT NULL AND exchange_rate IS NOT NULL
    UNION ALL
    SELECT 200, 'paid', 'Payments summary: Proceeds', region, NULL, NULL, NULL, bank_currency, proceeds, file_id, line
    FROM paid WHERE proceeds IS NOT NULL AND exchange_rate IS NOT NULL
    UNION ALL
    SELECT 210, 'bank vs paid', 'bank amount entered', 'entry ' || id || ' at ' || entered_at::text, NULL, NULL,
        NULL, currency, amount, NULL::bigint, NULL::integer
    FROM bank
    UNION ALL
    SELECT 210, 'bank vs paid', 'Payments summary: Proceeds', region, NULL, NULL, NULL, bank_currency, -proceeds,
        file_id, line
    FROM paid WHERE proceeds IS NOT NULL AND exchange_rate IS NOT NULL AND EXISTS (SELECT 1 FROM bank)
    UNION ALL
    SELECT 220, 'bank', 'bank amount entered', 'entry ' || id || ' at ' || entered_at::text, NULL, NULL, NULL,
        currency, amount, NULL::bigint, NULL::integer
    FROM bank
)
SELECT (SELECT label FROM m) AS month, r.step_order, r.step, r.source,
    concat_ws(' ', fi.name || ':' || r.line, r.reference) AS reference, r.day, r.product, r.units,
    r.currency, trim_scale(r.amount) AS amount,
    CASE WHEN r.currency = rc.currency THEN NULL
         ELSE '1 ' || r.currency || ' = ' || round(f.rate / t.rate, 6) || ' ' || rc.currency END AS rate
FROM rows r
LEFT JOIN files fi ON fi.id = r.file_id
CROSS JOIN reporting rc
CROSS JOIN m
LEFT JOIN month_end_rate f ON (f.fiscal_year, f.fiscal_month, f.currency) = (m.fiscal_year, m.fiscal_month, r.currency)
LEFT JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month, t.currency) = (m.fiscal_year, m.fiscal_month, rc.currency)
    AND t.bank_currency = f.bank_currency
WHERE ($3::integer IS NULL OR r.step_order = $3) AND r.amount <> 0
ORDER BY r.step_order, r.step, r.currency, r.source, r.day NULLS LAST, r.reference, r.product
