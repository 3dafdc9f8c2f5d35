-- The windows an incremental reconcile covers (docs/reconciliation.md, "What a run reconciles"): the days that
-- receipt and sales files not yet in reconcile_file touch, each grown to every report period that overlaps it, and
-- on until no stored period crosses a window's edge. Inside such a window the choice of periods and every line come
-- out as a reconcile of all days makes them. Runs in reconcile's transaction, before queries/reconcile.sql, which
-- reads rc_window. Only the first statement takes parameters: $1 the time zone.
-- Statements end with ';' at the end of a line.

CREATE TEMPORARY TABLE rc_change_setting ON COMMIT DROP AS
SELECT $1::text AS time_zone;

CREATE TEMPORARY TABLE rc_new_file ON COMMIT DROP AS
SELECT f.id AS file_id, f.kind
FROM input_file f
WHERE f.kind IN ('receipts', 'sales') AND NOT EXISTS (SELECT 1 FROM reconcile_file d WHERE d.file_id = f.id);

-- The transactions the new receipt files changed (a receipt's id is its file's id * 2^32 + its record number): those
-- they stored first, those their copy gave a new fact (a late copy that adds a cancellation puts the cancellation's
-- day here), and those no valid receipt had listed first (a valid copy now can make them count). Not the others they
-- list: a subscriber's every receipt repeats the whole history, which did not change. is_new: the purchase's own day
-- changes too — it is counted for the first time, or a signed copy may have given it a price; a refund, an upgrade or
-- an expiry changes only the cancellation's day.
CREATE TEMPORARY TABLE rc_listed ON COMMIT DROP AS
SELECT DISTINCT p.id, p.original_transaction_id, p.web_order_line_item_id, p.purchase_date, p.cancellation_date,
    p.first_receipt_id, p.changed_receipt_id, p.signed_date
FROM rc_new_file f
JOIN receipt_purchase rp
    ON rp.receipt_id >= f.file_id * 4294967296 AND rp.receipt_id < (f.file_id + 1) * 4294967296
JOIN purchase p ON p.environment = rp.environment AND p.transaction_id = rp.transaction_id
WHERE f.kind = 'receipts';
ANALYZE rc_listed;

-- The first receipt is found by key (file_id repeats the id's high half: receipt ids hash badly, decisions.md).
CREATE TEMPORARY TABLE rc_new_purchase ON COMMIT DROP AS
SELECT l.id, l.original_transaction_id, l.web_order_line_item_id, l.purchase_date, l.cancellation_date,
    ((l.first_receipt_id >> 32) IN (SELECT file_id FROM rc_new_file)
     OR first.id IS NULL OR first.status NOT IN (0, 21006) OR first.is_sandbox
     OR l.signed_date IS NOT NULL) AS is_new
FROM rc_listed l
LEFT JOIN receipt first ON first.id = l.first_receipt_id AND first.file_id = l.first_receipt_id >> 32
WHERE (l.first_receipt_id >> 32) IN (SELECT file_id FROM rc_new_file)
   OR (l.changed_receipt_id >> 32) IN (SELECT file_id FROM rc_new_file)
   OR first.id IS NULL OR first.status NOT IN (0, 21006) OR first.is_sandbox;

-- A billed subscription period counts once, on its earliest transaction: a new transaction of the same web order
-- line item can move it off the day of the one counted so far.
INSERT INTO rc_new_purchase
SELECT s.id, s.original_transaction_id, s.web_order_line_item_id, s.purchase_date, s.cancellation_date, true
FROM (
    SELECT DISTINCT original_transaction_id, web_order_line_item_id
    FROM rc_new_purchase
    WHERE is_new AND original_transaction_id IS NOT NULL AND web_order_line_item_id IS NOT NULL
) n
JOIN purchase s ON s.original_transaction_id = n.original_transaction_id
    AND s.web_order_line_item_id = n.web_order_line_item_id;

-- The changed days: purchases' and cancellations' days in the zone, and the periods new report files cover.
CREATE TEMPORARY TABLE rc_seed ON COMMIT DROP AS
SELECT DISTINCT first_day, last_day
FROM (
    SELECT (p.purchase_date AT TIME ZONE z.time_zone)::date AS first_day,
        (p.purchase_date AT TIME ZONE z.time_zone)::date AS last_day
    FROM rc_new_purchase p CROSS JOIN rc_change_setting z
    WHERE p.purchase_date IS NOT NULL AND p.is_new
    UNION ALL
    SELECT (p.cancellation_date AT TIME ZONE z.time_zone)::date, (p.cancellation_date AT TIME ZONE z.time_zone)::date
    FROM rc_new_purchase p CROSS JOIN rc_change_setting z
    WHERE p.cancellation_date IS NOT NULL
    UNION ALL
    SELECT sp.begin_date, sp.end_date
    FROM rc_new_file f
    JOIN sales_report_period sp ON sp.file_id = f.file_id
    WHERE f.kind = 'sales'
) days;

-- Islands of overlapping spans among the changed days and every stored period (one row per distinct period, a few
-- per report file): an island holding a changed day is a window. No stored period crosses its edges.
CREATE TEMPORARY TABLE rc_window ON COMMIT DROP AS
WITH span AS (
    SELECT first_day, last_day, true AS is_changed FROM rc_seed
    UNION ALL
    SELECT DISTINCT begin_date, end_date, false FROM sales_report_period
),
reach AS (
    SELECT s.*, max(s.last_day) OVER (
            ORDER BY s.first_day, s.last_day, s.is_changed ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
        ) AS reach
    FROM span s
),
island AS (
    SELECT r.*, count(*) FILTER (WHERE r.reach IS NULL OR r.first_day > r.reach) OVER (
            ORDER BY r.first_day, r.last_day, r.is_changed ROWS UNBOUNDED PRECEDING
        ) AS island
    FROM reach r
)
SELECT min(first_day) AS first_day, max(last_day) AS last_day
FROM island
GROUP BY island
HAVING bool_or(is_changed);
