-- Sales and financial reports, their findings, and reconciliation lines.
-- Forward only: never edit this file once released; add a new numbered migration instead.
--
-- sales_report_row is a bulk table loaded with COPY inside the transaction that writes its input_file and
-- sales_report rows, so it carries no foreign key (as receipt and purchase do not); small tables keep theirs.

-- One row per ingested report file: what its name and header say about it.
CREATE TABLE sales_report (
    file_id          bigint PRIMARY KEY REFERENCES input_file (id),
    layout           text NOT NULL,
    column_names     text[] NOT NULL,
    name_kind        text CHECK (name_kind IN ('sales', 'financial')),
    vendor_number    text,
    frequency        text CHECK (frequency IN ('daily', 'weekly', 'monthly', 'yearly')),
    name_year        integer,
    name_month       integer,
    name_day         integer,
    region           text,
    rows_stored      integer NOT NULL DEFAULT 0,
    rows_rejected    integer NOT NULL DEFAULT 0
);
COMMENT ON TABLE sales_report IS 'A Sales and Trends, financial or subscription report file: layout, header names, '
    'and vendor, frequency, date and region from its Apple file name when it has one.';
COMMENT ON COLUMN sales_report.column_names IS 'The header names in order; sales_report_row.column_values follows it.';

-- The periods a report covers: every distinct Begin–End of its rows, plus the period its file name names (so a
-- daily report with no in-app rows still says "nothing was sold that day").
CREATE TABLE sales_report_period (
    file_id      bigint NOT NULL REFERENCES sales_report (file_id),
    begin_date   date NOT NULL,
    end_date     date NOT NULL,
    PRIMARY KEY (file_id, begin_date, end_date)
);
CREATE INDEX sales_report_period_dates_idx ON sales_report_period (begin_date, end_date);

CREATE TABLE sales_report_row (
    file_id                  bigint NOT NULL,
    line                     integer NOT NULL,
    vendor_identifier        text NOT NULL,
    product_type_identifier  text NOT NULL,
    product_type             text NOT NULL,
    units                    integer NOT NULL,
    proceeds_per_unit        numeric,
    extended_proceeds        numeric,
    proceeds_currency        text,
    customer_price           numeric,
    customer_currency        text,
    country_code             text,
    begin_date               date,
    end_date                 date,
    apple_identifier         text,
    parent_identifier        text,
    title                    text,
    subscription             text,
    period                   text,
    sales_or_return          text,
    promo_code               text,
    order_type               text,
    column_values            text[] NOT NULL,
    PRIMARY KEY (file_id, line)
);
CREATE INDEX sales_report_row_dates_idx ON sales_report_row (begin_date, end_date);
COMMENT ON TABLE sales_report_row IS 'Every stored report row: canonical typed columns (trimmed; blanks are NULL) and '
    'every column verbatim in column_values, in the order of sales_report.column_names, unknown columns included.';
COMMENT ON COLUMN sales_report_row.product_type IS 'Classification of product_type_identifier: inAppPurchase, '
    'restoredInAppPurchase, app, redownload, update or unknown.';

-- Analysts read a row's full column set by name.
CREATE VIEW sales_report_row_columns AS
SELECT r.file_id, r.line, jsonb_object(s.column_names[1:cardinality(r.column_values)], r.column_values) AS columns
FROM sales_report_row r
JOIN sales_report s ON s.file_id = r.file_id;

-- Facts about a report file as a whole (header problems, header-only, a Total_Rows that disagrees, …).
CREATE TABLE sales_report_finding (
    id        bigserial PRIMARY KEY,
    file_id   bigint NOT NULL REFERENCES input_file (id),
    code      text NOT NULL,
    severity  text NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
    line      integer,
    message   text NOT NULL
);
CREATE INDEX sales_report_finding_file_idx ON sales_report_finding (file_id);

-- One line per (source, period, vendor identifier, app), rewritten whenever a reconcile covers its period.
CREATE TABLE reconciliation_line (
    id                  bigserial PRIMARY KEY,
    run_id              bigint REFERENCES pipeline_run (id),
    source              text NOT NULL CHECK (source IN ('sales', 'financial')),
    frequency           text NOT NULL,
    period_begin        date NOT NULL,
    period_end          date NOT NULL,
    vendor_identifier   text NOT NULL,
    app_bundle_id       text,
    parent_identifier   text,
    recorded_units      integer NOT NULL,
    recorded_trials     integer NOT NULL,
    reported_units      integer NOT NULL,
    difference          integer NOT NULL,
    status              text NOT NULL CHECK (status IN ('matched', 'variance', 'missing-in-report',
                            'missing-in-receipts', 'timing', 'unknown-product', 'parent-mismatch')),
    customer_price      jsonb NOT NULL DEFAULT '{}',
    proceeds            jsonb NOT NULL DEFAULT '{}',
    time_zone           text NOT NULL,
    UNIQUE NULLS NOT DISTINCT (source, period_begin, period_end, vendor_identifier, app_bundle_id)
);
CREATE INDEX reconciliation_line_period_idx ON reconciliation_line (period_begin, period_end);
COMMENT ON TABLE reconciliation_line IS 'Recorded units against Apple''s reported units per period, product and app. '
    'difference = reported_units - recorded_units. customer_price and proceeds are Apple''s, by currency.';
COMMENT ON COLUMN reconciliation_line.recorded_trials IS 'Free-trial subscription periods we recorded: counted '
    'apart, never as units.';
