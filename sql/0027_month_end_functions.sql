-- Issue 33: month-end in money. The four amounts per Apple fiscal month and currency, each from its own source and
-- each row traceable to what it sums (docs/reconciliation.md, "Month-end"):
--   recorded  what our archive says customers paid (reconcile_recorded_day: StoreKit 2 prices; a verifyReceipt
--             transaction, which carries none, is estimated from Apple's customer price for its product and day);
--   sold      Apple's Sales and Trends (reconciliation_line, source sales: customer price and proceeds);
--   owed      Apple's financial reports (Extended Partner Share by Partner Share Currency, returns negative);
--   paid      Apple's Payments summary (payment_region) and the bank amount a person entered (bank_deposit).

-- The views (apple_fiscal_month*, month_end_*) are sql/views/, applied after every numbered migration: views are
-- defined once. The functions below read them, so their bodies are checked when they run, not now.
SET LOCAL check_function_bodies = off;

-- The last Saturday of September of year y: where Apple's fiscal year y ends.
CREATE FUNCTION apple_fiscal_year_end(y integer) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT make_date(y, 9, 30) - (extract(dow FROM make_date(y, 9, 30))::integer + 1) % 7 $$;

-- The recorded, sold and owed amounts of one fiscal month per currency (what reports/month-end.sql shows): the views
-- filtered to the month before they are summed. A function so that the month reaches every view as a parameter, and
-- without JIT: compiling the views' expressions cost seconds for a month of a few thousand rows.
CREATE FUNCTION month_end_amount(for_year integer, for_month integer)
RETURNS TABLE (kind text, currency text, region text, amount numeric)
LANGUAGE sql STABLE
SET jit = off
AS $$
SELECT 'recorded ' || r.basis, r.currency, NULL::text, sum(r.amount)
FROM month_end_recorded r
WHERE r.fiscal_year = for_year AND r.fiscal_month = for_month AND r.basis <> 'unpriced'
GROUP BY r.basis, r.currency
UNION ALL
SELECT 'unpriced units', NULL, NULL, sum(r.units)
FROM month_end_recorded r
WHERE r.fiscal_year = for_year AND r.fiscal_month = for_month AND r.basis = 'unpriced'
UNION ALL
SELECT 'sold ' || s.kind, s.currency, NULL, sum(s.amount)
FROM month_end_sold s
WHERE s.fiscal_year = for_year AND s.fiscal_month = for_month
GROUP BY s.kind, s.currency
UNION ALL
SELECT k.kind, o.currency, min(o.region), sum(o.amount) FILTER (WHERE k.kind = 'owed' OR o.product_type = 'inAppPurchase')
FROM month_end_owed o
CROSS JOIN (VALUES ('owed'), ('owed in-app')) k (kind)
WHERE o.fiscal_year = for_year AND o.fiscal_month = for_month
GROUP BY k.kind, o.currency
$$;

-- The bridge of one fiscal month, per currency in that currency: from what we recorded in the calendar month to what
-- Apple paid, each difference under the cause the data shows (docs/reconciliation.md, "The bridge"); what no cause
-- explains is 'unexplained', never dropped. kind 'total' rows are the bars the differences lead between; 'cause' rows
-- sum, with the total before them, to the total after them. trace says where the figure's rows are.
CREATE FUNCTION month_end_bridge(for_year integer, for_month integer)
RETURNS TABLE (currency text, step_order integer, kind text, step text, cause text, amount numeric, trace text)
LANGUAGE sql STABLE
-- One month is a few thousand rows; compiling the query's many expressions cost 40 s at a 1M-entry history.
SET jit = off
AS $$
WITH m AS (
    SELECT * FROM apple_fiscal_month WHERE fiscal_year = for_year AND fiscal_month = for_month
),
calendar AS (
    SELECT make_date(for_year, for_month, 1) AS first_day, (make_date(for_year, for_month, 1) + interval '1 month - 1 day')::date AS last_day
),
recorded_calendar AS (
    SELECT r.currency, sum(r.amount) AS amount
    FROM month_end_recorded r
    WHERE r.day BETWEEN (SELECT first_day FROM calendar) AND (SELECT last_day FROM calendar) AND r.currency IS NOT NULL
    GROUP BY r.currency
),
recorded_fiscal AS (
    SELECT r.currency, sum(r.amount) AS amount
    FROM month_end_recorded r
    WHERE r.fiscal_year = for_year AND r.fiscal_month = for_month AND r.currency IS NOT NULL
    GROUP BY r.currency
),
lines AS (
    SELECT l.id, l.period_begin, l.period_end, l.vendor_identifier, l.app_bundle_id, l.difference, l.status,
        l.recorded_units, l.reported_units
    FROM reconciliation_line l, m
    WHERE l.source = 'sales' AND l.period_begin BETWEEN m.begin_date AND m.end_date
),
-- Refunds Apple reversed whose refund fell in a line's days: our side no longer counts them, Apple's report may. Read
-- from the refund copies (purchase_state), few beside the purchases.
reversed AS (
    SELECT l.id, count(*) AS units
    FROM purchase_state s
    JOIN purchase p ON p.environment = s.environment AND p.transaction_id = s.transaction_id
    CROSS JOIN (SELECT coalesce((SELECT value FROM reconcile_state WHERE name = 'time_zone'), 'America/Los_Angeles')
        AS zone) z
    JOIN lines l ON l.vendor_identifier = p.product_id
        AND (s.cancellation_date AT TIME ZONE z.zone)::date BETWEEN l.period_begin AND l.period_end
    WHERE s.cancellation_date IS NOT NULL AND NOT s.is_upgraded AND p.cancellation_date IS NULL
      AND p.environment = 'Production'
    GROUP BY l.id
),
-- Each line's money per currency: Apple's customer amount, and what we recorded on its days for its product and app.
line_sold AS (
    SELECT l.id, c.key AS currency, c.value::numeric AS amount
    FROM lines l
    JOIN reconciliation_line rl ON rl.id = l.id
    CROSS JOIN LATERAL jsonb_each_text(rl.customer_price) AS c
),
line_recorded AS (
    SELECT l.id, r.currency, sum(r.amount) AS amount
    FROM lines l
    JOIN month_end_recorded r ON r.day BETWEEN l.period_begin AND l.period_end AND r.product_id = l.vendor_identifier
        AND coalesce(r.app, '') = coalesce(l.app_bundle_id, '')
    WHERE r.currency IS NOT NULL
      AND r.day BETWEEN (SELECT min(period_begin) FROM lines) AND (SELECT max(period_end) FROM lines)
    GROUP BY l.id, r.currency
),
line_money AS (
    SELECT l.*, coalesce(s.currency, r.currency) AS currency, coalesce(s.amount, 0) AS sold,
        coalesce(r.amount, 0) AS recorded, coalesce(v.units, 0) AS reversed_units
    FROM lines l
    JOIN (line_sold s FULL JOIN line_recorded r ON r.id = s.id AND r.currency = s.currency)
        ON l.id = coalesce(s.id, r.id)
    LEFT JOIN reversed v ON v.id = l.id
),
-- Each line's difference (sold − recorded) under its cause: the line's status says which side lacks units; a
-- reversed refund explains missing units first; equal units with money apart by at most a cent a unit is rounding.
line_cause AS (
    SELECT currency, id, sold - recorded AS difference,
        CASE
            WHEN sold = recorded THEN NULL
            WHEN status = 'timing' THEN 'calendar vs fiscal month'
            WHEN status IN ('unknown-product', 'parent-mismatch') THEN 'unexplained'
            WHEN difference < 0 AND reversed_units >= -difference THEN 'refunds and reversals'
            WHEN difference < 0 THEN 'purchases Apple never reported'
            WHEN difference > 0 THEN 'sales never recorded'
            WHEN abs(sold - recorded) <= 0.01 * greatest(abs(reported_units), 1) THEN 'rounding'
            ELSE 'unexplained'
        END AS cause
    FROM line_money
),
-- Recorded money on days no Sales and Trends line covers: Apple said nothing about those days yet.
unlined AS (
    SELECT f.currency, f.amount - coalesce((SELECT sum(lm.recorded) FROM line_money lm WHERE lm.currency = f.currency), 0)
        AS amount
    FROM recorded_fiscal f
),
sold AS (
    SELECT x.currency, sum(x.amount) FILTER (WHERE x.kind = 'customer') AS customer,
        sum(x.amount) FILTER (WHERE x.kind = 'proceeds') AS proceeds
    FROM month_end_sold x
    WHERE x.fiscal_year = for_year AND x.fiscal_month = for_month
    GROUP BY x.currency
),
sold_refunds AS (
    SELECT proceeds_currency AS currency, sum(proceeds_amount) AS amount
    FROM month_end_sold_row
    WHERE fiscal_year = for_year AND fiscal_month = for_month AND units < 0
    GROUP BY proceeds_currency
),
owed AS (
    SELECT o.currency, sum(o.amount) AS amount_all,
        sum(o.amount) FILTER (WHERE o.product_type = 'inAppPurchase') AS amount_in_app,
        sum(o.amount) FILTER (WHERE o.product_type = 'inAppPurchase' AND (o.units < 0 OR o.sales_or_return = 'R'))
            AS returns,
        count(*) AS rows
    FROM month_end_owed o
    WHERE o.fiscal_year = for_year AND o.fiscal_month = for_month
    GROUP BY o.currency
),
paid AS (
    SELECT p.currency, sum(p.earned) AS earned, sum(p.input_tax) AS input_tax, sum(p.adjustments) AS adjustments,
        -sum(abs(p.withholding_tax)) AS withholding, sum(p.total_owed) AS total_owed, count(*) AS regions
    FROM month_end_paid p
    WHERE p.fiscal_year = for_year AND p.fiscal_month = for_month
    GROUP BY p.currency
),
currencies AS (
    SELECT currency FROM recorded_calendar UNION SELECT currency FROM recorded_fiscal UNION SELECT currency FROM sold
    UNION SELECT currency FROM owed UNION SELECT currency FROM paid
),
steps AS (
    SELECT c.currency, v.*
    FROM currencies c
    LEFT JOIN recorded_calendar rc USING (currency)
    LEFT JOIN recorded_fiscal rf USING (currency)
    LEFT JOIN sold s USING (currency)
    LEFT JOIN sold_refunds sr USING (currency)
    LEFT JOIN owed o USING (currency)
    LEFT JOIN paid p USING (currency)
    LEFT JOIN unlined u USING (currency)
    CROSS JOIN LATERAL (VALUES
        (10, 'total', 'recorded (cal.)', NULL, coalesce(rc.amount, 0), 'month_end_recorded: days of the calendar month'),
        (20, 'cause', 'calendar/fiscal', 'calendar vs fiscal month',
            coalesce(rf.amount, 0) - coalesce(rc.amount, 0), 'month_end_recorded: day'),
        (30, 'total', 'recorded', NULL, coalesce(rf.amount, 0), 'month_end_recorded'),
        (40, 'cause', 'no sales report', 'unexplained',
            -coalesce(u.amount, 0), 'month_end_recorded without a reconciliation line'),
        (50, 'cause', NULL, NULL, NULL, NULL),
        (60, 'total', 'sold (customer)', NULL, coalesce(s.customer, 0), 'month_end_sold, kind customer'),
        (70, 'cause', 'Apple''s share', 'taxes and adjustments',
            coalesce(s.proceeds, 0) - coalesce(s.customer, 0), 'month_end_sold'),
        (80, 'total', 'sold (proceeds)', NULL, coalesce(s.proceeds, 0), 'month_end_sold, kind proceeds'),
        (90, 'cause', 'late returns',
            'refunds and reversals', coalesce(o.returns, 0) - coalesce(sr.amount, 0),
            'month_end_owed returns against month_end_sold_row refunds'),
        (100, 'cause', 'sales vs finance', NULL,
            coalesce(o.amount_in_app, 0) - coalesce(s.proceeds, 0) - (coalesce(o.returns, 0) - coalesce(sr.amount, 0)),
            'month_end_owed against month_end_sold'),
        (110, 'total', 'owed (in-app)', NULL, coalesce(o.amount_in_app, 0), 'month_end_owed, in-app'),
        (120, 'cause', 'other products', 'other products',
            coalesce(o.amount_all, 0) - coalesce(o.amount_in_app, 0), 'month_end_owed, not in-app'),
        (130, 'total', 'owed', NULL, coalesce(o.amount_all, 0), 'month_end_owed'),
        (140, 'cause', 'Earned vs owed', 'unexplained',
            CASE WHEN p.currency IS NULL THEN 0 ELSE p.earned - coalesce(o.amount_all, 0) END, 'month_end_paid'),
        (150, 'cause', 'input tax', 'taxes and adjustments', coalesce(p.input_tax, 0), 'month_end_paid'),
        (160, 'cause', 'adjustments', 'taxes and adjustments', coalesce(p.adjustments, 0), 'month_end_paid'),
        (170, 'cause', 'withholding tax', 'taxes and adjustments', coalesce(p.withholding, 0), 'month_end_paid'),
        (175, 'cause', 'Apple''s sums', 'unexplained',
            CASE WHEN p.currency IS NULL THEN 0
                 ELSE p.total_owed - (p.earned + p.input_tax + p.adjustments + p.withholding) END, 'month_end_paid'),
        (180, 'total', 'total owed', NULL,
            CASE WHEN p.currency IS NULL THEN coalesce(o.amount_all, 0) ELSE p.total_owed END, 'month_end_paid')
    ) v (step_order, kind, step, cause, amount, trace)
    WHERE v.step_order <> 50
),
-- The line causes, one row per cause and currency (step_order 50: between recorded and sold).
line_steps AS (
    SELECT currency, 50 AS step_order, 'cause' AS kind,
        CASE cause WHEN 'purchases Apple never reported' THEN 'never reported' WHEN 'sales never recorded'
            THEN 'never recorded' WHEN 'refunds and reversals' THEN 'reversed refunds' WHEN 'calendar vs fiscal month'
            THEN 'day boundary' ELSE cause END AS step,
        cause, sum(difference) AS amount,
        'reconciliation_line ids ' || string_agg(id::text, ',' ORDER BY id) AS trace
    FROM line_cause
    WHERE cause IS NOT NULL
    GROUP BY currency, cause
)
-- Cents: a figure of many decimals (an estimate, a milliunit price) is rounded as it is shown.
SELECT currency, step_order, kind, step,
    -- The rest between sold proceeds and owed: a cent a row is rounding, more is unexplained.
    CASE WHEN step_order = 100 THEN
        CASE WHEN abs(amount) <= 0.01 * greatest((SELECT rows FROM owed o WHERE o.currency = steps.currency), 1)
            THEN 'rounding' ELSE 'unexplained' END
        ELSE cause END,
    round(amount, 2), trace
FROM steps
WHERE kind = 'total' OR amount <> 0
UNION ALL
SELECT currency, step_order, kind, step, cause, round(amount, 2), trace FROM line_steps
$$;

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT EXECUTE ON FUNCTION month_end_amount(integer, integer), month_end_bridge(integer, integer)
            TO iap_audit_analyst;
    END IF;
END
$$;
