-- Reconciles recorded purchases against Apple's sales and financial reports (docs/reconciliation.md) for windows of
-- days, replacing the lines of every period that overlaps one. Two temporary tables are made before this runs: the
-- windows, rc_window (first_day, last_day; disjoint), and for changed days (queries/reconcile_changes.sql) the days
-- and products whose recorded totals to recount, rc_recount. For --from/--to or all days there is one window, and
-- the recount is made here. Runs in one transaction; temporary tables drop at commit. Only the first statement takes
-- parameters: $1 time zone, $2 run id, $3 scope: 'all', 'window' or 'changed-days'.
-- Statements end with ';' at the end of a line.

CREATE TEMPORARY TABLE rc_setting ON COMMIT DROP AS
SELECT $1::text AS time_zone, $2::bigint AS run_id, $3::text AS scope;

-- Temporary tables are never analyzed automatically; with statistics the planner sees a few windows and reads
-- their periods and purchases through the indexes, and knows the settings are one row, not the 810 it assumes (each
-- statement joining them was priced high enough to be JIT-compiled: 0.35 s to update no neighbour of all days).
ANALYZE rc_setting;
ANALYZE rc_window;

-- Products by id alone, for a report row or purchase whose app does not say which app's product it is.
CREATE TEMPORARY TABLE rc_product_any ON COMMIT DROP AS
SELECT DISTINCT ON (product_id) product_id, bundle_id, type
FROM product
ORDER BY product_id, bundle_id;

-- Which sales periods are reconciled depends on every stored period, never on the windows: a window only says which
-- lines are rewritten. A period touching a window (near) is chosen unless a coarser incomplete period overlaps it;
-- whether that one is complete depends on the finer periods inside it. So three steps out from the windows are read,
-- every sales period for all days. span orders frequencies: 0 daily, 6 weekly, ~30 monthly, ~365 yearly.
CREATE TEMPORARY TABLE rc_sales_period ON COMMIT DROP AS
SELECT DISTINCT p.begin_date, p.end_date, p.end_date - p.begin_date AS span
FROM sales_report_period p
JOIN sales_report s ON s.file_id = p.file_id
WHERE s.layout LIKE 'sales-%';

CREATE TEMPORARY TABLE rc_near ON COMMIT DROP AS
SELECT DISTINCT p.*
FROM rc_sales_period p
JOIN rc_window w ON p.begin_date <= w.last_day AND p.end_date >= w.first_day;

CREATE TEMPORARY TABLE rc_decide ON COMMIT DROP AS
SELECT DISTINCT p.*
FROM rc_sales_period p
JOIN rc_near n ON p.begin_date <= n.end_date AND p.end_date >= n.begin_date;

CREATE TEMPORARY TABLE rc_candidate ON COMMIT DROP AS
SELECT DISTINCT p.*
FROM rc_sales_period p
JOIN rc_decide d ON p.begin_date <= d.end_date AND p.end_date >= d.begin_date;

-- A period some of whose days no finer report covers: only it can speak for those days.
CREATE TEMPORARY TABLE rc_incomplete ON COMMIT DROP AS
SELECT c.*
FROM rc_decide c
WHERE c.span = 0 OR EXISTS (
    SELECT 1
    FROM generate_series(c.begin_date, c.end_date, interval '1 day') AS d(day)
    WHERE NOT EXISTS (
        SELECT 1 FROM rc_candidate f
        WHERE f.span < c.span AND d.day::date BETWEEN f.begin_date AND f.end_date
    )
);

-- The periods reconciled: the finest frequency present for a day, never two at once. A coarser period that finer
-- reports do not fully cover wins over the finer ones inside it (comparing the whole week beats comparing five of
-- its days and losing two). Financial reports reconcile by their fiscal periods.
CREATE TEMPORARY TABLE rc_period ON COMMIT DROP AS
SELECT 'sales'::text AS source, i.begin_date, i.end_date,
    CASE
        WHEN i.span = 0 THEN 'daily'
        WHEN i.span = 6 THEN 'weekly'
        WHEN i.begin_date = date_trunc('month', i.begin_date)::date
            AND i.end_date = (date_trunc('month', i.begin_date) + interval '1 month - 1 day')::date THEN 'monthly'
        WHEN i.begin_date = date_trunc('year', i.begin_date)::date
            AND i.end_date = (date_trunc('year', i.begin_date) + interval '1 year - 1 day')::date THEN 'yearly'
        ELSE 'days-' || (i.span + 1)
    END AS frequency
FROM rc_incomplete i
WHERE EXISTS (SELECT 1 FROM rc_near n WHERE n.begin_date = i.begin_date AND n.end_date = i.end_date)
  AND NOT EXISTS (
    SELECT 1 FROM rc_incomplete o
    WHERE o.span > i.span AND o.begin_date <= i.end_date AND o.end_date >= i.begin_date
)
UNION ALL
SELECT DISTINCT 'financial', p.begin_date, p.end_date, 'fiscal'
FROM rc_window w
JOIN sales_report_period p ON p.begin_date <= w.last_day AND p.end_date >= w.first_day
JOIN sales_report s ON s.file_id = p.file_id
WHERE s.layout = 'financial';

-- Where several files report the same period for the same vendor (and region), the one ingested last counts: a
-- re-issued or re-downloaded report must not double the units.
CREATE TEMPORARY TABLE rc_file ON COMMIT DROP AS
SELECT DISTINCT ON (source, vendor, region, p.begin_date, p.end_date)
    p.source, coalesce(s.vendor_number, '') AS vendor, coalesce(s.region, '') AS region, p.begin_date, p.end_date,
    s.file_id
FROM rc_period p
JOIN sales_report_period sp ON sp.begin_date = p.begin_date AND sp.end_date = p.end_date
JOIN sales_report s ON s.file_id = sp.file_id
    AND ((p.source = 'sales' AND s.layout LIKE 'sales-%') OR (p.source = 'financial' AND s.layout = 'financial'))
ORDER BY source, vendor, region, p.begin_date, p.end_date, s.file_id DESC;

-- Apple's side: in-app purchase sale rows (IA3 restores are not sales) of the chosen files and periods, each
-- resolved to an app. The parent identifier names the app by SKU or, failing that, by Apple ID.
CREATE TEMPORARY TABLE rc_reported ON COMMIT DROP AS
SELECT f.source, f.begin_date, f.end_date, r.vendor_identifier, r.parent_identifier, r.units,
    CASE
        WHEN own.product_id IS NOT NULL THEN coalesce(by_sku.bundle_id, by_apple_id.bundle_id)
        WHEN known.product_id IS NOT NULL THEN known.bundle_id
        ELSE coalesce(by_sku.bundle_id, by_apple_id.bundle_id)
    END AS app,
    CASE
        WHEN own.product_id IS NOT NULL THEN NULL
        WHEN known.product_id IS NULL THEN 'unknown-product'
        -- A blank parent identifier (some layouts and rows have none) says nothing against the catalog.
        WHEN r.parent_identifier IS NULL THEN NULL
        ELSE 'parent-mismatch'
    END AS problem,
    r.customer_currency,
    r.units * abs(r.customer_price) AS customer_amount,
    r.proceeds_currency,
    coalesce(r.extended_proceeds, r.units * r.proceeds_per_unit) AS proceeds_amount
FROM rc_file f
JOIN sales_report_row r ON r.file_id = f.file_id AND r.begin_date = f.begin_date AND r.end_date = f.end_date
-- Both are unique in app, so each join finds one app at most (two joins, not a LATERAL union: Citus plans no union
-- over a reference table inside a join, docs/scale.md).
LEFT JOIN app by_sku ON by_sku.sku = r.parent_identifier
LEFT JOIN app by_apple_id ON by_apple_id.apple_id = r.parent_identifier
LEFT JOIN product own ON own.bundle_id = coalesce(by_sku.bundle_id, by_apple_id.bundle_id)
    AND own.product_id = r.vendor_identifier
LEFT JOIN rc_product_any known ON known.product_id = r.vendor_identifier
WHERE r.product_type = 'inAppPurchase';

CREATE TEMPORARY TABLE rc_report_line ON COMMIT DROP AS
WITH keyed AS (
    SELECT r.*, coalesce(r.app, '') AS app_key FROM rc_reported r
),
units AS (
    SELECT source, begin_date, end_date, vendor_identifier, app_key, min(app) AS app,
        min(parent_identifier) AS parent_identifier, min(problem) AS problem, sum(units)::integer AS units
    FROM keyed
    GROUP BY source, begin_date, end_date, vendor_identifier, app_key
),
-- Customer price and proceeds, each summed per currency, in one pass over the rows.
money AS (
    SELECT source, begin_date, end_date, vendor_identifier, app_key,
        jsonb_object_agg(currency, amount) FILTER (WHERE kind = 'customer') AS customer_price,
        jsonb_object_agg(currency, amount) FILTER (WHERE kind = 'proceeds') AS proceeds
    FROM (
        SELECT k.source, k.begin_date, k.end_date, k.vendor_identifier, k.app_key, m.kind, m.currency,
            sum(m.amount) AS amount
        FROM keyed k
        CROSS JOIN LATERAL (
            VALUES ('customer', k.customer_currency, k.customer_amount),
                   ('proceeds', k.proceeds_currency, k.proceeds_amount)
        ) m (kind, currency, amount)
        WHERE m.currency IS NOT NULL AND m.amount IS NOT NULL
        GROUP BY k.source, k.begin_date, k.end_date, k.vendor_identifier, k.app_key, m.kind, m.currency
    ) t
    GROUP BY source, begin_date, end_date, vendor_identifier, app_key
)
SELECT u.source, u.begin_date, u.end_date, u.vendor_identifier, u.app, u.parent_identifier, u.problem, u.units,
    coalesce(m.customer_price, '{}') AS customer_price, coalesce(m.proceeds, '{}') AS proceeds
FROM units u
LEFT JOIN money m USING (source, begin_date, end_date, vendor_identifier, app_key);

-- The recorded totals to recount when rc_recount did not come with the windows: every day for all days, else the days
-- of the periods reconciled (a forced window's edge periods reach beyond it). product_id NULL: every product.
CREATE TEMPORARY TABLE IF NOT EXISTS rc_recount (first_day date, last_day date, product_id text) ON COMMIT DROP;

INSERT INTO rc_recount
SELECT '-infinity'::date, 'infinity'::date, NULL
WHERE (SELECT scope FROM rc_setting) = 'all'
UNION ALL
SELECT min(p.begin_date), max(p.end_date), NULL
FROM rc_window w
JOIN rc_period p ON p.begin_date <= w.last_day AND p.end_date >= w.first_day
WHERE (SELECT scope FROM rc_setting) = 'window'
GROUP BY w.first_day, w.last_day;
ANALYZE rc_recount;

-- The purchases whose purchase or cancellation falls on a recounted day, found through their indexes between the
-- zone's midnights (the inverse of the "AT TIME ZONE … ::date" that days them below; a day of slack either side read
-- three days' purchases for each day recounted). For all days, every dated purchase, read whole.
CREATE TEMPORARY TABLE rc_purchase ON COMMIT DROP AS
WITH bound AS (
    SELECT b.product_id, b.first_day::timestamp AT TIME ZONE z.time_zone AS starts,
        (b.last_day + 1)::timestamp AT TIME ZONE z.time_zone AS ends
    FROM rc_recount b CROSS JOIN rc_setting z
    WHERE z.scope <> 'all'
)
SELECT p.id, p.original_transaction_id, p.web_order_line_item_id
FROM bound b
JOIN purchase p ON p.purchase_date >= b.starts AND p.purchase_date < b.ends
    AND (b.product_id IS NULL OR p.product_id = b.product_id)
UNION
SELECT p.id, p.original_transaction_id, p.web_order_line_item_id
FROM bound b
JOIN purchase p ON p.cancellation_date >= b.starts AND p.cancellation_date < b.ends
    AND (b.product_id IS NULL OR p.product_id = b.product_id)
UNION ALL
SELECT p.id, p.original_transaction_id, p.web_order_line_item_id
FROM purchase p
WHERE (SELECT scope FROM rc_setting) = 'all' AND (p.purchase_date IS NOT NULL OR p.cancellation_date IS NOT NULL);

-- A billed subscription period counts once, on its earliest transaction (below): the other transactions of its web
-- order line item must be there to choose from even when they fall on days not recounted. For all days, every dated
-- purchase already is.
INSERT INTO rc_purchase
SELECT s.id, s.original_transaction_id, s.web_order_line_item_id
FROM (
    SELECT DISTINCT original_transaction_id, web_order_line_item_id
    FROM rc_purchase
    WHERE original_transaction_id IS NOT NULL AND web_order_line_item_id IS NOT NULL
) n
JOIN purchase s ON s.original_transaction_id = n.original_transaction_id
    AND s.web_order_line_item_id = n.web_order_line_item_id
WHERE (SELECT scope FROM rc_setting) <> 'all';
ANALYZE rc_purchase;

-- Our side: production transactions of valid receipts (status 0, and 21006: a valid receipt whose subscription has
-- expired) and verified signed transactions, once each, as sales and refunds per day in the zone. A signed
-- transaction carries its price (milliunits of its currency): amount_milli is units x price, the refund negative;
-- unpriced counts the transactions that carry none (every legacy one).
CREATE TEMPORARY TABLE rc_day ON COMMIT DROP AS
WITH eligible AS (
    SELECT p.transaction_id, p.original_transaction_id, p.product_id, p.quantity, p.purchase_date,
        p.cancellation_date, coalesce(p.is_upgraded, false) AS is_upgraded,
        coalesce(p.is_trial_period, false) AS is_trial, p.web_order_line_item_id, p.bundle_id, p.app_item_id,
        abs(p.price) AS price, p.currency,
        -- A signed transaction says its product's type; the catalog still wins where it knows the product.
        CASE p.type WHEN 'Auto-Renewable Subscription' THEN 'auto-renewable' WHEN 'Non-Consumable' THEN 'non-consumable'
            WHEN 'Non-Renewing Subscription' THEN 'non-renewing' WHEN 'Consumable' THEN 'consumable' END AS signed_type
    FROM purchase p
    WHERE p.id IN (SELECT id FROM rc_purchase)
      AND p.environment = 'Production'
      AND p.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED'
      -- A signed copy only exists when its signature verified, and its environment is its own signed word: a record
      -- that also holds a sandbox or Xcode object (is_sandbox) does not make a verified production transaction less so.
      -- Uncorrelated, which PostgreSQL plans as the same semi-join and Citus can run (docs/scale.md).
      AND (p.environment, p.transaction_id) IN (
          -- file_id repeats the id's high half: receipt ids alone hash badly (docs/decisions.md, "Storage").
          SELECT rp.environment, rp.transaction_id
          FROM receipt_purchase rp JOIN receipt r ON r.id = rp.receipt_id AND r.file_id = rp.receipt_id >> 32
          WHERE r.status IN (0, 21006) AND (NOT r.is_sandbox OR rp.source = 'signed')
      )
),
resolved AS (
    SELECT e.*, coalesce(own.bundle_id, known.bundle_id, by_bundle.bundle_id, by_apple_id.bundle_id, e.bundle_id)
            AS app,
        coalesce(own.type, known.type, e.signed_type, 'consumable') AS type
    FROM eligible e
    LEFT JOIN app by_bundle ON by_bundle.bundle_id = e.bundle_id
    LEFT JOIN app by_apple_id ON by_bundle.bundle_id IS NULL AND by_apple_id.apple_id = e.app_item_id
    LEFT JOIN product own ON own.bundle_id = coalesce(by_bundle.bundle_id, by_apple_id.bundle_id)
        AND own.product_id = e.product_id
    LEFT JOIN rc_product_any known ON own.product_id IS NULL AND known.product_id = e.product_id
),
counted AS (
    -- Auto-renewable: each billed period once (its web order line item), whatever restores repeat it.
    (SELECT DISTINCT ON (coalesce(web_order_line_item_id, 'transaction ' || transaction_id))
        product_id, app, 1 AS quantity, purchase_date, cancellation_date, is_upgraded, is_trial, price, currency
    FROM resolved
    WHERE type = 'auto-renewable'
    ORDER BY coalesce(web_order_line_item_id, 'transaction ' || transaction_id), purchase_date, transaction_id)
    UNION ALL
    -- Non-consumables and other owned products: the original purchase only; a restore is not a sale.
    SELECT product_id, app, quantity, purchase_date, cancellation_date, is_upgraded, false, price, currency
    FROM resolved
    WHERE type IN ('non-consumable', 'non-renewing', 'free-subscription')
      AND (original_transaction_id IS NULL OR original_transaction_id = transaction_id)
    UNION ALL
    -- Consumables (and products the catalog does not know): every transaction.
    SELECT product_id, app, quantity, purchase_date, cancellation_date, is_upgraded, false, price, currency
    FROM resolved
    WHERE type = 'consumable'
),
events AS (
    SELECT c.product_id, c.app, (c.purchase_date AT TIME ZONE w.time_zone)::date AS day,
        CASE WHEN c.is_trial THEN 0 ELSE c.quantity END AS units, CASE WHEN c.is_trial THEN 1 ELSE 0 END AS trials,
        c.price, c.currency
    FROM counted c CROSS JOIN rc_setting w
    WHERE c.purchase_date IS NOT NULL
    UNION ALL
    -- A refund counts on the day of the cancellation, as Apple reports it; an upgrade is not a refund.
    SELECT c.product_id, c.app, (c.cancellation_date AT TIME ZONE w.time_zone)::date, -c.quantity, 0, c.price,
        c.currency
    FROM counted c CROSS JOIN rc_setting w
    WHERE c.cancellation_date IS NOT NULL AND NOT c.is_upgraded AND NOT c.is_trial
),
-- The recounts that are not one day of one product: --from/--to or all days (changed days have none).
recount_span AS MATERIALIZED (
    SELECT * FROM rc_recount WHERE first_day <> last_day OR product_id IS NULL
)
SELECT e.day, e.product_id, e.app, e.currency, sum(e.units)::integer AS units, sum(e.trials)::integer AS trials,
    sum(e.units::bigint * e.price) AS amount_milli,
    count(*) FILTER (WHERE e.price IS NULL OR e.currency IS NULL)::integer AS unpriced
FROM events e
-- Only the recounted days and products: a sibling read to choose a billed period's transaction may fall elsewhere.
-- A day of a product is looked up by hash: compared with every recount in turn, the check cost more than the count
-- (160 ms for the 164 recounts of a day at 4M entries).
WHERE (e.day, e.product_id) IN (
          SELECT first_day, product_id FROM rc_recount WHERE first_day = last_day AND product_id IS NOT NULL)
   OR EXISTS (
          SELECT 1 FROM recount_span r
          WHERE e.day BETWEEN r.first_day AND r.last_day AND (r.product_id IS NULL OR r.product_id = e.product_id))
GROUP BY e.day, e.product_id, e.app, e.currency;

DELETE FROM reconcile_recorded_day d
USING rc_recount r
WHERE d.day BETWEEN r.first_day AND r.last_day AND (r.product_id IS NULL OR r.product_id = d.product_id);

INSERT INTO reconcile_recorded_day (day, product_id, app, currency, units, trials, amount_milli, unpriced)
SELECT day, product_id, app, currency, units, trials, amount_milli, unpriced
FROM rc_day;

-- recorded_customer_amount: the recorded customer amount by currency, only where every transaction of the line
-- carries a price; one unpriced transaction makes it NULL, never a partial sum. Two decimals, three where a
-- milliunit price needs them.
CREATE TEMPORARY TABLE rc_recorded_line ON COMMIT DROP AS
WITH by_currency AS (
    SELECT p.source, p.begin_date, p.end_date, d.product_id, d.app, d.currency, sum(d.units) AS units,
        sum(d.trials) AS trials, sum(d.amount_milli) AS amount_milli, sum(d.unpriced) AS unpriced
    FROM reconcile_recorded_day d
    JOIN rc_period p ON d.day BETWEEN p.begin_date AND p.end_date
    GROUP BY p.source, p.begin_date, p.end_date, d.product_id, d.app, d.currency
)
SELECT source, begin_date, end_date, product_id AS vendor_identifier, app, sum(units)::integer AS units,
    sum(trials)::integer AS trials,
    CASE WHEN sum(unpriced) = 0 THEN
        coalesce(
            jsonb_object_agg(
                currency, round(amount_milli / 1000.0, CASE WHEN amount_milli % 10 = 0 THEN 2 ELSE 3 END)
            ) FILTER (WHERE currency IS NOT NULL),
            '{}')
    END AS customer_amount
FROM by_currency
GROUP BY source, begin_date, end_date, product_id, app;

CREATE TEMPORARY TABLE rc_line ON COMMIT DROP AS
SELECT coalesce(rep.source, rec.source) AS source, per.frequency,
    coalesce(rep.begin_date, rec.begin_date) AS period_begin, coalesce(rep.end_date, rec.end_date) AS period_end,
    coalesce(rep.vendor_identifier, rec.vendor_identifier) AS vendor_identifier,
    coalesce(rep.app, rec.app) AS app_bundle_id, rep.parent_identifier,
    coalesce(rec.units, 0) AS recorded_units, coalesce(rec.trials, 0) AS recorded_trials,
    coalesce(rep.units, 0) AS reported_units, coalesce(rep.units, 0) - coalesce(rec.units, 0) AS difference,
    rep.problem, coalesce(rep.customer_price, '{}') AS customer_price, coalesce(rep.proceeds, '{}') AS proceeds,
    -- Nothing recorded: every recorded transaction (none) is priced, and they come to nothing.
    CASE WHEN rec.source IS NULL THEN '{}' ELSE rec.customer_amount END AS recorded_customer_amount
FROM rc_report_line rep
FULL JOIN rc_recorded_line rec
    ON rec.source = rep.source AND rec.begin_date = rep.begin_date AND rec.end_date = rep.end_date
    AND rec.vendor_identifier = rep.vendor_identifier AND coalesce(rec.app, '') = coalesce(rep.app, '')
JOIN rc_period per ON per.source = coalesce(rep.source, rec.source)
    AND per.begin_date = coalesce(rep.begin_date, rec.begin_date)
    AND per.end_date = coalesce(rep.end_date, rec.end_date)
-- A product neither side sold nor refunded in the period is not a line.
WHERE coalesce(rec.units, 0) <> 0 OR coalesce(rec.trials, 0) <> 0 OR rep.source IS NOT NULL;

-- Stored lines outside the windows next to a period reconciled now: a timing status looks at the adjacent period.
CREATE TEMPORARY TABLE rc_neighbour ON COMMIT DROP AS
SELECT n.id, n.source, n.period_begin, n.period_end, n.vendor_identifier, n.app_bundle_id, n.difference,
    CASE WHEN n.status IN ('unknown-product', 'parent-mismatch') THEN n.status END AS problem
FROM reconciliation_line n
WHERE (n.period_begin IN (SELECT period_end + 1 FROM rc_line) OR n.period_end IN (SELECT period_begin - 1 FROM rc_line))
  AND NOT EXISTS (SELECT 1 FROM rc_window w WHERE n.period_begin <= w.last_day AND n.period_end >= w.first_day);
ANALYZE rc_neighbour;

-- Timing: a difference offset exactly by the opposite difference on the adjacent period of the same product and app.
CREATE TEMPORARY TABLE rc_timing ON COMMIT DROP AS
WITH adjacent AS (
    SELECT source, period_begin, period_end, vendor_identifier, app_bundle_id, difference, problem FROM rc_line
    UNION ALL
    SELECT source, period_begin, period_end, vendor_identifier, app_bundle_id, difference, problem FROM rc_neighbour
)
SELECT DISTINCT l.source, l.period_begin, l.period_end, l.vendor_identifier, l.app_bundle_id
FROM rc_line l
JOIN adjacent n ON n.source = l.source AND n.vendor_identifier = l.vendor_identifier
    AND coalesce(n.app_bundle_id, '') = coalesce(l.app_bundle_id, '')
    AND (n.period_begin = l.period_end + 1 OR n.period_end = l.period_begin - 1)
    AND n.difference = -l.difference
WHERE l.difference <> 0 AND l.problem IS NULL AND n.problem IS NULL;

DELETE FROM reconciliation_line l
USING rc_window w
WHERE l.period_begin <= w.last_day AND l.period_end >= w.first_day;

INSERT INTO reconciliation_line (run_id, source, frequency, period_begin, period_end, vendor_identifier,
    app_bundle_id, parent_identifier, recorded_units, recorded_trials, reported_units, difference, status,
    customer_price, proceeds, recorded_customer_amount, time_zone)
SELECT w.run_id, l.source, l.frequency, l.period_begin, l.period_end, l.vendor_identifier, l.app_bundle_id,
    l.parent_identifier, l.recorded_units, l.recorded_trials, l.reported_units, l.difference,
    CASE
        WHEN l.problem IS NOT NULL THEN l.problem
        WHEN l.difference = 0 THEN 'matched'
        WHEN t.source IS NOT NULL THEN 'timing'
        WHEN l.reported_units = 0 THEN 'missing-in-report'
        WHEN l.recorded_units = 0 THEN 'missing-in-receipts'
        ELSE 'variance'
    END,
    l.customer_price, l.proceeds, l.recorded_customer_amount, w.time_zone
FROM rc_line l
CROSS JOIN rc_setting w
LEFT JOIN rc_timing t ON t.source = l.source AND t.period_begin = l.period_begin AND t.period_end = l.period_end
    AND t.vendor_identifier = l.vendor_identifier AND coalesce(t.app_bundle_id, '') = coalesce(l.app_bundle_id, '')
ORDER BY l.source, l.period_begin, l.period_end, l.vendor_identifier, l.app_bundle_id;

-- A neighbour's timing status follows the lines written now: its own columns stand, only whether an adjacent period
-- offsets its difference may have changed. A neighbour whose status changes is marked with this run.
UPDATE reconciliation_line l
SET status = s.status, run_id = w.run_id
FROM (
    SELECT n.id,
        CASE
            WHEN n.problem IS NOT NULL THEN n.problem
            WHEN n.difference = 0 THEN 'matched'
            WHEN EXISTS (
                SELECT 1 FROM reconciliation_line o
                WHERE o.source = n.source AND o.vendor_identifier = n.vendor_identifier
                    AND coalesce(o.app_bundle_id, '') = coalesce(n.app_bundle_id, '')
                    AND (o.period_begin = n.period_end + 1 OR o.period_end = n.period_begin - 1)
                    AND o.difference = -n.difference AND o.status NOT IN ('unknown-product', 'parent-mismatch')
            ) THEN 'timing'
            WHEN r.reported_units = 0 THEN 'missing-in-report'
            WHEN r.recorded_units = 0 THEN 'missing-in-receipts'
            ELSE 'variance'
        END AS status
    FROM rc_neighbour n
    JOIN reconciliation_line r ON r.id = n.id
) s
CROSS JOIN rc_setting w
WHERE l.id = s.id AND l.status <> s.status;
