-- Issue 33: Apple's "Payments and Financial Reports" summary, typed, and the bank amount a person enters.
--
-- The summary's rows stay in sales_report_row like every report row (file_id, line: the way back to the file); these
-- tables hold what month-end needs typed: per region what Apple earned, taxed, adjusted, owes and paid, at which
-- exchange rate. Apple's own arithmetic is checked when the file is read; a failed check is a sales_report_finding on
-- the file (docs/reconciliation.md, "Month-end").

-- One row per stored Payments summary: the fiscal month its title names (NULL when it names none: a finding says so).
CREATE TABLE payment_summary (
    file_id       bigint PRIMARY KEY REFERENCES input_file (id),
    fiscal_year   integer,
    fiscal_month  integer CHECK (fiscal_month BETWEEN 1 AND 12),
    title         text
);
CREATE INDEX payment_summary_month_idx ON payment_summary (fiscal_year, fiscal_month);
COMMENT ON TABLE payment_summary IS 'A Payments and Financial Reports summary file and the Apple fiscal month its '
    'title names.';

-- One row per region line; line is the file's line, as in sales_report_row.
CREATE TABLE payment_region (
    file_id           bigint NOT NULL REFERENCES payment_summary (file_id),
    line              integer NOT NULL,
    region            text NOT NULL,
    currency          text NOT NULL,
    units_sold        integer,
    earned            numeric NOT NULL,
    pre_tax_subtotal  numeric,
    input_tax         numeric NOT NULL,
    adjustments       numeric NOT NULL,
    withholding_tax   numeric NOT NULL,
    total_owed        numeric NOT NULL,
    exchange_rate     numeric,
    proceeds          numeric,
    bank_currency     text,
    PRIMARY KEY (file_id, line)
);
COMMENT ON TABLE payment_region IS 'A region of a Payments summary: Earned, Input Tax, Adjustments, Withholding Tax '
    '(as printed, a deduction), Total Owed in the region''s currency; Exchange Rate and Proceeds in bank currency.';

-- What Apple says it paid, per footer: "234.58" EUR, and the masked account line after it.
CREATE TABLE payment_paid (
    file_id   bigint NOT NULL REFERENCES payment_summary (file_id),
    line      integer NOT NULL,
    amount    numeric NOT NULL,
    currency  text NOT NULL,
    paid_to   text,
    PRIMARY KEY (file_id, line)
);

-- The amount that reached the bank for a fiscal month, entered by a person (`iap-audit month-end bank`): the one
-- figure no file of Apple's carries. The latest entry for a month and currency counts; earlier ones are kept.
CREATE TABLE bank_deposit (
    id            bigserial PRIMARY KEY,
    fiscal_year   integer NOT NULL,
    fiscal_month  integer NOT NULL CHECK (fiscal_month BETWEEN 1 AND 12),
    currency      text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount        numeric NOT NULL,
    note          text,
    entered_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX bank_deposit_month_idx ON bank_deposit (fiscal_year, fiscal_month, currency, id);

DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON payment_summary, payment_region, payment_paid, bank_deposit TO iap_audit_analyst;
    END IF;
END
$$;
