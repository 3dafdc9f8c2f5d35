-- What an incremental reconcile redoes (docs/reconciliation.md, "What a run reconciles"), from the receipt and sales
-- files not yet in reconcile_file. Makes two tables queries/reconcile.sql reads:
-- * rc_recount: the days and products whose recorded totals (reconcile_recorded_day) the new receipts changed;
-- * rc_window: the days whose report periods get new lines: those days, and for a new report file every stored period
--   that overlaps its own (a new period can change which of them is the finest complete one).
-- Runs in reconcile's transaction. Only the first statement takes parameters: $1 the time zone.
-- Statements end with ';' at the end of a line.

CREATE TEMPORARY TABLE rc_change_setting ON COMMIT DROP AS
SELECT $1::text AS time_zone;

CREATE TEMPORARY TABLE rc_new_file ON COMMIT DROP AS
SELECT f.id AS file_id, f.kind
FROM input_file f
WHERE f.kind IN ('receipts', 'sales') AND NOT EXISTS (SELECT 1 FROM reconcile_file d WHERE d.file_id = f.id);
ANALYZE rc_new_file;

-- First the new files' copies alone (a file's copies are one range of receipt_purchase's key), counted: joined to
-- their receipts before that, the planner reads every receipt to hash them.
CREATE TEMPORARY TABLE rc_new_copy ON COMMIT DROP AS
SELECT rp.receipt_id, rp.environment, rp.transaction_id, rp.source
FROM rc_new_file f
JOIN receipt_purchase rp
    ON rp.receipt_id >= f.file_id * 4294967296 AND rp.receipt_id < (f.file_id + 1) * 4294967296
-- Sandbox and Xcode transactions never count.
WHERE f.kind = 'receipts' AND rp.environment = 'Production';
ANALYZE rc_new_copy;

-- The transactions the new receipt files changed (a receipt's id is its file's id * 2^32 + its record number): those
-- they stored first, those their copy gave a new fact (a late copy that adds a cancellation puts the cancellation's
-- day here), and those a valid receipt lists for the first time (they count from now on). Not the others they list:
-- a subscriber's every receipt repeats the whole history, which did not change. is_new: the purchase's own day
-- changes too — it is counted for the first time, or a signed copy may have given it a price; a refund, an upgrade or
-- an expiry changes only the cancellation's day. is_valid_listing: a new receipt that counts lists it (the test
-- reconcile.sql makes: status 0 or 21006, production, or a verified signed copy).
-- The copies meet their receipts first, then their transactions: Citus joins a temporary table to one distributed
-- table at a time (docs/scale.md).
CREATE TEMPORARY TABLE rc_new_listing ON COMMIT DROP AS
SELECT c.environment, c.transaction_id,
    bool_or(r.status IN (0, 21006) AND (NOT r.is_sandbox OR c.source = 'signed')) AS is_valid_listing
FROM rc_new_copy c
JOIN receipt r ON r.id = c.receipt_id AND r.file_id = c.receipt_id >> 32
GROUP BY c.environment, c.transaction_id;
ANALYZE rc_new_listing;
CREATE TEMPORARY TABLE rc_listed ON COMMIT DROP AS
SELECT p.id, p.environment, p.transaction_id, p.original_transaction_id, p.web_order_line_item_id, p.purchase_date,
    p.cancellation_date, p.product_id, p.first_receipt_id, p.changed_receipt_id, p.signed_date, l.is_valid_listing
FROM rc_new_listing l
JOIN purchase p ON p.environment = l.environment AND p.transaction_id = l.transaction_id;
ANALYZE rc_listed;

-- The first receipts, read by key (a temporary table meets one distributed table at a time on Citus). A transaction
-- whose first receipt did not count starts counting when a new valid receipt lists it and no earlier one did: only
-- then, not on every receipt of a sandbox tester that repeats it.
CREATE TEMPORARY TABLE rc_first_receipt ON COMMIT DROP AS
SELECT r.id, r.status, r.is_sandbox
FROM receipt r
WHERE r.id IN (SELECT first_receipt_id FROM rc_listed);
CREATE TEMPORARY TABLE rc_listed_change ON COMMIT DROP AS
SELECT l.*, coalesce((l.first_receipt_id >> 32) IN (SELECT file_id FROM rc_new_file), false) AS is_first,
    coalesce((l.changed_receipt_id >> 32) IN (SELECT file_id FROM rc_new_file), false) AS is_changed,
    (first.id IS NULL OR first.status NOT IN (0, 21006) OR first.is_sandbox) AS first_did_not_count
FROM rc_listed l
LEFT JOIN rc_first_receipt first ON first.id = l.first_receipt_id;
-- Of the few that may start counting, those an earlier file's valid receipt listed already: looked up by key.
CREATE TEMPORARY TABLE rc_counted_before ON COMMIT DROP AS
SELECT DISTINCT rp.environment, rp.transaction_id
FROM receipt_purchase rp
JOIN receipt r ON r.id = rp.receipt_id AND r.file_id = rp.receipt_id >> 32
WHERE rp.transaction_id IN (
        SELECT transaction_id FROM rc_listed_change
        WHERE NOT (is_first OR is_changed) AND first_did_not_count AND is_valid_listing)
  AND r.status IN (0, 21006) AND (NOT r.is_sandbox OR rp.source = 'signed')
  AND r.file_id NOT IN (SELECT file_id FROM rc_new_file);

CREATE TEMPORARY TABLE rc_new_purchase ON COMMIT DROP AS
SELECT id, original_transaction_id, web_order_line_item_id, purchase_date, cancellation_date, product_id,
    (is_first OR first_did_not_count OR signed_date IS NOT NULL) AS is_new
FROM rc_listed_change
WHERE is_first OR is_changed
UNION ALL
SELECT l.id, l.original_transaction_id, l.web_order_line_item_id, l.purchase_date, l.cancellation_date,
    l.product_id, true
FROM rc_listed_change l
WHERE NOT (l.is_first OR l.is_changed) AND l.first_did_not_count AND l.is_valid_listing
  AND NOT EXISTS (
      SELECT 1 FROM rc_counted_before b WHERE b.environment = l.environment AND b.transaction_id = l.transaction_id);

-- A billed subscription period counts once, on its earliest transaction: a new transaction of the same web order
-- line item can move it off the day of the one counted so far.
INSERT INTO rc_new_purchase
SELECT s.id, s.original_transaction_id, s.web_order_line_item_id, s.purchase_date, s.cancellation_date,
    s.product_id, true
FROM (
    SELECT DISTINCT original_transaction_id, web_order_line_item_id
    FROM rc_new_purchase
    WHERE is_new AND original_transaction_id IS NOT NULL AND web_order_line_item_id IS NOT NULL
) n
JOIN purchase s ON s.original_transaction_id = n.original_transaction_id
    AND s.web_order_line_item_id = n.web_order_line_item_id;

-- A refund Apple reversed leaves the transaction without a cancellation, but its day still holds it: every refund
-- the changed transactions' copies ever said (purchase_state) has its day recounted too.
CREATE TEMPORARY TABLE rc_state_refund ON COMMIT DROP AS
SELECT o.cancellation_date, l.product_id
FROM rc_listed_change l
JOIN purchase_state o ON o.environment = l.environment AND o.transaction_id = l.transaction_id
WHERE l.is_changed AND o.cancellation_date IS NOT NULL;

-- The recorded totals to recount: the days, in the zone, of the changed purchases and cancellations, per product.
CREATE TEMPORARY TABLE rc_recount ON COMMIT DROP AS
SELECT DISTINCT day AS first_day, day AS last_day, product_id
FROM (
    SELECT (p.purchase_date AT TIME ZONE z.time_zone)::date AS day, p.product_id
    FROM rc_new_purchase p CROSS JOIN rc_change_setting z
    WHERE p.purchase_date IS NOT NULL AND p.is_new
    UNION ALL
    SELECT (p.cancellation_date AT TIME ZONE z.time_zone)::date, p.product_id
    FROM rc_new_purchase p CROSS JOIN rc_change_setting z
    WHERE p.cancellation_date IS NOT NULL
    UNION ALL
    SELECT (o.cancellation_date AT TIME ZONE z.time_zone)::date, o.product_id
    FROM rc_state_refund o CROSS JOIN rc_change_setting z
) days;

-- The windows: the recounted days, and each new report file's period with every stored period overlapping it,
-- merged where they overlap or touch so that no day is counted twice.
CREATE TEMPORARY TABLE rc_window ON COMMIT DROP AS
WITH span AS (
    SELECT DISTINCT first_day, last_day FROM rc_recount
    UNION
    SELECT o.begin_date, o.end_date
    FROM rc_new_file f
    JOIN sales_report_period n ON n.file_id = f.file_id
    JOIN sales_report_period o ON o.begin_date <= n.end_date AND o.end_date >= n.begin_date
    WHERE f.kind = 'sales'
),
reach AS (
    SELECT s.*, max(s.last_day) OVER (
            ORDER BY s.first_day, s.last_day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS reach
    FROM span s
),
island AS (
    SELECT r.*, count(*) FILTER (WHERE r.reach IS NULL OR r.first_day > r.reach + 1) OVER (
            ORDER BY r.first_day, r.last_day ROWS UNBOUNDED PRECEDING
        ) AS island
    FROM reach r
)
SELECT min(first_day) AS first_day, max(last_day) AS last_day
FROM island
GROUP BY island;
