-- Issue 33: the month-end pack within its 1 s at a 1M-entry history (docs/reconciliation.md, "The pack, and what it
-- costs"). Step 50's line causes become a function of their own, month_end_line_cause, read by month_end_bridge (a
-- new version of 0027's, the same figures) and by the report month-end-rows, which had to evaluate the whole bridge
-- again only to learn which lines each cause holds. The sold refunds are read within the month's days; an index finds
-- the line that prices a recorded day.
-- Forward only: never edit this file once released; add a new numbered migration instead.

-- The views the functions read are sql/views/, applied after every numbered migration.
SET LOCAL check_function_bodies = off;

-- The Sales and Trends line of a product that covers a day, as month_end_recorded prices an unpriced day with it: by
-- product and the line's last day. The unique key (source, period_begin, …) could bound only period_begin <= day, and
-- read every line from the first day of history for each day priced: 0.13 ms a day, 100 ms of the month-end table at
-- a 1M-entry history, 27 ms with this index. The pack is of the latest closed month, whose lines end last.
CREATE INDEX reconciliation_line_sales_product_end_idx ON reconciliation_line (vendor_identifier, period_end)
    WHERE source = 'sales';

-- Each Sales and Trends line of one fiscal month, per currency: Apple's customer amount (sold), what we recorded on
-- its days for its product and app (recorded), their difference and its cause, and the bridge's step for that cause
-- (NULL where the two agree). The line's status says which side lacks units; a reversed refund explains missing units
-- first; equal units with money apart by at most a cent a unit is rounding.
CREATE FUNCTION month_end_line_cause(for_year integer, for_month integer)
RETURNS TABLE (id bigint, currency text, sold numeric, recorded numeric, difference numeric, cause text, step text)
LANGUAGE sql STABLE
-- One month is a few thousand rows; compiling the query's many expressions cost seconds at a 1M-entry history.
SET jit = off
AS $$
WITH m AS (
    SELECT * FROM apple_fiscal_month WHERE fiscal_year = for_year AND fiscal_month = for_month
),
lines AS (
    SELECT l.id, l.period_begin, l.period_end, l.vendor_identifier, l.app_bundle_id, l.difference, l.status,
        l.recorded_units, l.reported_units, l.customer_price
    FROM reconciliation_line l
    WHERE l.source = 'sales'
      AND l.period_begin BETWEEN (SELECT begin_date FROM m) AND (SELECT end_date FROM m)
),
-- Refunds Apple reversed whose refund fell in a line's days: our side no longer counts them, Apple's report may. Read
-- from the refund copies (purchase_state), few beside the purchases: those of the month's days first, then their
-- purchases by key (joined the other way round, every purchase of a line's product was paired with the line).
refunded AS MATERIALIZED (
    SELECT s.environment, s.transaction_id, (s.cancellation_date AT TIME ZONE z.zone)::date AS day
    FROM purchase_state s
    CROSS JOIN (SELECT coalesce((SELECT value FROM reconcile_state WHERE name = 'time_zone'), 'America/Los_Angeles')
        AS zone) z
    WHERE s.cancellation_date IS NOT NULL AND NOT s.is_upgraded AND s.environment = 'Production'
      AND (s.cancellation_date AT TIME ZONE z.zone)::date
          BETWEEN (SELECT min(period_begin) FROM lines) AND (SELECT max(period_end) FROM lines)
),
reversed AS (
    SELECT l.id, count(*) AS units
    FROM refunded s
    JOIN purchase p ON p.environment = s.environment AND p.transaction_id = s.transaction_id
    JOIN lines l ON l.vendor_identifier = p.product_id AND s.day BETWEEN l.period_begin AND l.period_end
    WHERE p.cancellation_date IS NULL
    GROUP BY l.id
),
line_sold AS (
    SELECT l.id, c.key AS currency, c.value::numeric AS amount
    FROM lines l
    CROSS JOIN LATERAL jsonb_each_text(l.customer_price) AS c
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
line_cause AS (
    SELECT id, currency, sold, recorded,
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
)
SELECT id, currency, sold, recorded, sold - recorded, cause,
    CASE cause WHEN 'purchases Apple never reported' THEN 'never reported' WHEN 'sales never recorded'
        THEN 'never recorded' WHEN 'refunds and reversals' THEN 'reversed refunds' WHEN 'calendar vs fiscal month'
        THEN 'day boundary' ELSE cause END
FROM line_cause
$$;

-- The bridge of one fiscal month, per currency in that currency (0027's, docs/reconciliation.md, "The bridge"): the
-- same rows, with step 50 from month_end_line_cause.
CREATE OR REPLACE FUNCTION month_end_bridge(for_year integer, for_month integer)
RETURNS TABLE (currency text, step_order integer, kind text, step text, cause text, amount numeric, trace text)
LANGUAGE sql STABLE
SET jit = off
AS $$
WITH m AS (
    SELECT * FROM apple_fiscal_month WHERE fiscal_year = for_year AND fiscal_month = for_month
),
calendar AS (
    SELECT make_date(for_year, for_month, 1) AS first_day,
        (make_date(for_year, for_month, 1) + interval '1 month - 1 day')::date AS last_day
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
line_cause AS MATERIALIZED (
    SELECT * FROM month_end_line_cause(for_year, for_month)
),
-- Recorded money on days no Sales and Trends line covers: Apple said nothing about those days yet.
unlined AS (
    SELECT f.currency, f.amount - coalesce((SELECT sum(lc.recorded) FROM line_cause lc WHERE lc.currency = f.currency), 0)
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
-- Bounded to the month's days before the view joins the fiscal calendar (at a year of reports, 0.4 s without).
sold_refunds AS (
    SELECT proceeds_currency AS currency, sum(proceeds_amount) AS amount
    FROM month_end_sold_row
    WHERE fiscal_year = for_year AND fiscal_month = for_month AND units < 0
      AND begin_date BETWEEN (SELECT begin_date FROM m) AND (SELECT end_date FROM m)
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
    SELECT currency, 50 AS step_order, 'cause' AS kind, step, cause, sum(difference) AS amount,
        'reconciliation_line ids ' || string_agg(id::text, ',' ORDER BY id) AS trace
    FROM line_cause
    WHERE cause IS NOT NULL
    GROUP BY currency, cause, step
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
        GRANT EXECUTE ON FUNCTION month_end_line_cause(integer, integer) TO iap_audit_analyst;
    END IF;
END
$$;
