-- title: Month-end bridge
-- description: One Apple fiscal month from what we recorded to what reached the bank, in the reporting currency at
--   Apple's own exchange rates of the month: each total (recorded, sold, owed, paid, bank) and between them every
--   difference under the cause the data shows; what no cause explains is 'unexplained'. A currency Apple gave no rate
--   for that month is listed last with its figures in its own currency (own_amount), left out of the totals and the
--   chart. Answers: why is the bank amount not what we recorded?
-- param: month month = null -- the fiscal month as YYYY-MM, as the Payments summary names it (2014-09: September, 2014); default: the latest closed one (what run writes)
-- param: currency text = null -- the reporting currency (ISO 4217); default: the month's bank account currency
-- chart: waterfall x=step y=amount series=kind unit=money
-- link: amount -> month-end-rows month-end/{month}-{step_order}-{step}.html
-- sensitive: false

WITH month AS (
    SELECT split_part(v, '-', 1)::integer AS fiscal_year, split_part(v, '-', 2)::integer AS fiscal_month, v AS label
    -- The parameter's kind (month) was checked before the query: YYYY-MM or NULL.
    FROM (SELECT coalesce($1::text, (SELECT month FROM month_end_latest_closed)) AS v) t
),
reporting AS (
    SELECT coalesce(upper($2::text), (SELECT min(p.bank_currency) FROM month_end_paid p JOIN month USING (fiscal_year,
        fiscal_month))) AS currency
),
-- Apple's rate from each currency into the reporting currency, through the bank currency.
rate AS (
    SELECT f.currency, f.rate / t.rate AS rate
    FROM month m
    JOIN month_end_rate f USING (fiscal_year, fiscal_month)
    JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month) = (m.fiscal_year, m.fiscal_month)
        AND t.currency = (SELECT currency FROM reporting) AND t.bank_currency = f.bank_currency
),
bridge AS (
    SELECT b.*, x.rate
    FROM month m
    CROSS JOIN LATERAL month_end_bridge(m.fiscal_year, m.fiscal_month) b
    LEFT JOIN rate x USING (currency)
),
converted AS (
    SELECT step_order, kind, step, cause, round(sum(amount * rate), 2) AS amount,
        string_agg(DISTINCT currency, ' ' ORDER BY currency) AS currencies,
        string_agg(DISTINCT trace, '; ' ORDER BY trace) AS trace
    FROM bridge
    WHERE rate IS NOT NULL
    GROUP BY step_order, kind, step, cause
),
-- Paid: Apple's Proceeds in the bank currency; the conversion of Total Owed at Apple's printed rate is exact but for
-- rounding (a cent a region, and what the rate's five decimals hide); beyond that the rates did not hold.
paid AS (
    SELECT sum(p.proceeds) / min(t.rate) AS paid,
        sum(p.total_owed * p.exchange_rate) / min(t.rate) AS owed_at_rate,
        sum(0.01 + abs(p.total_owed) * 0.000005) / min(t.rate) AS tolerance
    FROM month m
    JOIN month_end_paid p USING (fiscal_year, fiscal_month)
    JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month) = (m.fiscal_year, m.fiscal_month)
        AND t.currency = (SELECT currency FROM reporting) AND t.bank_currency = p.bank_currency
    WHERE p.proceeds IS NOT NULL AND p.exchange_rate IS NOT NULL
),
bank AS (
    SELECT b.amount / t.rate AS amount
    FROM month m
    JOIN month_end_bank b USING (fiscal_year, fiscal_month)
    JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month) = (m.fiscal_year, m.fiscal_month)
        AND t.currency = (SELECT currency FROM reporting) AND t.bank_currency = b.currency
),
closing AS (
    SELECT v.*
    FROM paid p
    LEFT JOIN bank b ON true
    CROSS JOIN LATERAL (VALUES
        (190, 'cause', 'exchange rates',
            CASE WHEN abs(p.paid - p.owed_at_rate) <= p.tolerance THEN 'rounding' ELSE 'exchange rates' END,
            round(p.paid, 2) - (SELECT amount FROM converted WHERE step_order = 180)),
        (200, 'total', 'paid', NULL, round(p.paid, 2)),
        (210, 'cause', 'bank vs paid', 'unexplained', round(b.amount - p.paid, 2)),
        (220, 'total', 'bank', NULL, round(b.amount, 2))
    ) v (step_order, kind, step, cause, amount)
    WHERE p.paid IS NOT NULL AND (v.step_order < 210 OR b.amount IS NOT NULL)
)
SELECT step_order, kind, step, cause, amount, NULL::numeric AS own_amount, (SELECT currency FROM reporting) AS currency,
    currencies, trace, 0 AS unconverted, (SELECT label FROM month) AS month
FROM converted
WHERE kind = 'total' OR amount <> 0
UNION ALL
SELECT step_order, kind, step, cause, amount, NULL, (SELECT currency FROM reporting), NULL,
    'month_end_paid, month_end_bank', 0, (SELECT label FROM month)
FROM closing
WHERE kind = 'total' OR amount <> 0
UNION ALL
-- A currency without Apple's rate this month: its figures in its own currency, outside the totals.
SELECT b.step_order, 'unconverted', b.step || ' (no Apple rate for ' || b.currency || ' this month)', b.cause,
    NULL, round(b.amount, 2), b.currency, b.currency, b.trace, 1, (SELECT label FROM month)
FROM bridge b
WHERE b.rate IS NULL AND (b.kind = 'total' OR b.amount <> 0)
ORDER BY unconverted, currency, step_order, step
