-- title: Month-end
-- description: One Apple fiscal month in money, per currency (and the region Apple pays it under): what we recorded
--   customers paid (recorded; estimated at Apple's customer price where a verifyReceipt purchase carries none),
--   what Apple's Sales and Trends say it sold (customer price and proceeds), what its financial reports say it owes
--   (in-app purchases, and everything) and what its Payments summary says it paid after taxes, adjustments and its
--   exchange rate; then each figure in the reporting currency at Apple's own rates of the month. A currency Apple
--   gave no rate for that month has its reporting-currency figures blank and says so. Answers: where did the money go?
-- param: month month = null -- the fiscal month as YYYY-MM, as the Payments summary names it (2014-09: September, 2014); default: the latest closed one (what run writes)
-- param: currency text = null -- the reporting currency (ISO 4217); default: the month's bank account currency
-- sensitive: false

WITH month AS (
    SELECT m.*
    FROM apple_fiscal_month m
    WHERE (m.fiscal_year, m.fiscal_month) = (
        SELECT split_part(v, '-', 1)::integer, split_part(v, '-', 2)::integer
        -- The parameter's kind (month) was checked before the query: YYYY-MM or NULL.
        FROM (SELECT coalesce($1::text, (SELECT month FROM month_end_latest_closed)) AS v) t)
),
reporting AS (
    SELECT coalesce(
        upper($2::text),
        (SELECT min(p.bank_currency) FROM month_end_paid p JOIN month USING (fiscal_year, fiscal_month))) AS currency
),
amounts AS (
    SELECT a.* FROM month_end_amount((SELECT fiscal_year FROM month), (SELECT fiscal_month FROM month)) a
),
recorded AS (
    SELECT a.currency, sum(a.amount) FILTER (WHERE a.kind = 'recorded recorded') AS recorded,
        sum(a.amount) FILTER (WHERE a.kind = 'recorded estimated') AS estimated
    FROM amounts a
    WHERE a.kind LIKE 'recorded %' AND a.currency IS NOT NULL
    GROUP BY a.currency
),
unpriced AS (
    SELECT sum(a.amount) AS units FROM amounts a WHERE a.kind = 'unpriced units'
),
sold AS (
    SELECT a.currency, sum(a.amount) FILTER (WHERE a.kind = 'sold customer') AS sold_customer,
        sum(a.amount) FILTER (WHERE a.kind = 'sold proceeds') AS sold_proceeds
    FROM amounts a
    WHERE a.kind LIKE 'sold %'
    GROUP BY a.currency
),
owed AS (
    SELECT a.currency, min(a.region) AS region, sum(a.amount) FILTER (WHERE a.kind = 'owed') AS owed,
        sum(a.amount) FILTER (WHERE a.kind = 'owed in-app') AS owed_in_app
    FROM amounts a
    WHERE a.kind LIKE 'owed%'
    GROUP BY a.currency
),
paid AS (
    SELECT p.currency, min(p.region) AS region, sum(p.earned) AS earned, sum(p.input_tax) AS input_tax,
        sum(p.adjustments) AS adjustments, sum(p.withholding_tax) AS withholding_tax, sum(p.total_owed) AS total_owed,
        min(p.exchange_rate) AS exchange_rate, sum(p.proceeds) AS paid, min(p.bank_currency) AS bank_currency
    FROM month_end_paid p JOIN month USING (fiscal_year, fiscal_month)
    GROUP BY p.currency
),
currencies AS (
    SELECT currency FROM recorded UNION SELECT currency FROM sold UNION SELECT currency FROM owed
    UNION SELECT currency FROM paid
),
-- Apple's rate from each currency into the reporting currency: through the bank currency, where both have one.
rate AS (
    SELECT c.currency, f.rate / t.rate AS rate
    FROM currencies c
    CROSS JOIN reporting rc
    JOIN month m ON true
    JOIN month_end_rate f ON (f.fiscal_year, f.fiscal_month, f.currency) = (m.fiscal_year, m.fiscal_month, c.currency)
    JOIN month_end_rate t ON (t.fiscal_year, t.fiscal_month, t.currency) = (m.fiscal_year, m.fiscal_month, rc.currency)
        AND t.bank_currency = f.bank_currency
)
SELECT (SELECT to_char(make_date(fiscal_year, fiscal_month, 1), 'YYYY-MM') FROM month) AS month,
    (SELECT begin_date FROM month) AS fiscal_begin, (SELECT end_date FROM month) AS fiscal_end,
    coalesce(p.region, o.region) AS region, c.currency,
    round(r.recorded, 2) AS recorded, round(r.estimated, 2) AS recorded_estimated,
    round(s.sold_customer, 2) AS sold_customer, round(s.sold_proceeds, 2) AS sold_proceeds,
    round(o.owed_in_app, 2) AS owed_in_app, round(o.owed, 2) AS owed,
    p.earned, p.input_tax, p.adjustments, p.withholding_tax, p.total_owed, p.exchange_rate, p.paid, p.bank_currency,
    (SELECT currency FROM reporting) AS reporting_currency,
    round((coalesce(r.recorded, 0) + coalesce(r.estimated, 0)) * x.rate, 2) AS recorded_reporting,
    round(s.sold_customer * x.rate, 2) AS sold_customer_reporting,
    round(s.sold_proceeds * x.rate, 2) AS sold_proceeds_reporting,
    round(o.owed * x.rate, 2) AS owed_reporting,
    round(p.total_owed * x.rate, 2) AS total_owed_reporting,
    CASE WHEN p.bank_currency = (SELECT currency FROM reporting) THEN p.paid ELSE round(p.paid * x.rate / p.exchange_rate, 2) END
        AS paid_reporting,
    concat_ws('; ',
        CASE WHEN x.rate IS NULL THEN 'no Apple exchange rate for ' || c.currency || ' this month' END,
        CASE WHEN r.estimated IS NOT NULL THEN 'recorded partly estimated at Apple''s customer price' END,
        CASE WHEN (SELECT dates_from FROM month) = 'computed' THEN 'fiscal dates computed: no financial report stored' END
    ) AS note,
    (SELECT units FROM unpriced)::integer AS unpriced_units
FROM currencies c
LEFT JOIN recorded r USING (currency)
LEFT JOIN sold s USING (currency)
LEFT JOIN owed o USING (currency)
LEFT JOIN paid p USING (currency)
LEFT JOIN rate x USING (currency)
ORDER BY coalesce(p.region, o.region) NULLS LAST, c.currency
