-- Fetching from Apple (docs/fetching.md). apple_report_fetch holds App Store Connect's answer for each report period
-- asked for, by the file name Apple gives the report: 'stored' (the file is in the spool), 'no_sales' (Apple said no
-- report will exist) or 'not_published' (asked again next run). A period is asked for again unless it is stored, or
-- Apple answered 'no_sales' for it after the re-ask window (a week) had passed.
CREATE TABLE apple_report_fetch (
    file_name  text PRIMARY KEY,
    report     text NOT NULL,
    last_day   date NOT NULL,
    outcome    text NOT NULL CHECK (outcome IN ('stored', 'no_sales', 'not_published')),
    bytes      bigint,
    asked_at   timestamptz NOT NULL,
    run_id     bigint
);
COMMENT ON TABLE apple_report_fetch IS 'App Store Connect''s last answer for each report period fetch asked for, by '
    'Apple''s file name: stored, no_sales or not_published.';

-- Notification history is fetched in windows of at most a day, each paginated on its own (so several are fetched at
-- once) and resumable: next_token is the pagination token of the window's next page (NULL before its first page),
-- pages the pages stored so far (page files are numbered), complete whether Apple said it had no more. A new window
-- starts where the stream's latest one ended, so a run asks only for what is new. only_failures: the stream of
-- notifications Apple never delivered (onlyFailures), fetched beside the stream of all of them.
CREATE TABLE apple_notification_window (
    bundle_id      text NOT NULL,
    environment    text NOT NULL,
    only_failures  boolean NOT NULL,
    window_start   timestamptz NOT NULL,
    window_end     timestamptz NOT NULL,
    next_token     text,
    pages          integer NOT NULL DEFAULT 0,
    notifications  integer NOT NULL DEFAULT 0,
    complete       boolean NOT NULL DEFAULT false,
    updated_at     timestamptz NOT NULL,
    run_id         bigint,
    PRIMARY KEY (bundle_id, environment, only_failures, window_start),
    CHECK (window_start < window_end)
);
COMMENT ON TABLE apple_notification_window IS 'Notification-history windows fetch asked Apple for, with where their '
    'pagination stands: a killed fetch resumes at its page.';

-- Transaction and refund history fetched for named transactions: the revision Apple gave with the last page, so the
-- next fetch of the same transaction asks only for what changed since.
CREATE TABLE apple_history_revision (
    kind            text NOT NULL CHECK (kind IN ('transactions', 'refunds')),
    environment     text NOT NULL,
    transaction_id  text NOT NULL,
    bundle_id       text,
    revision        text,
    pages           integer NOT NULL DEFAULT 0,
    transactions    integer NOT NULL DEFAULT 0,
    updated_at      timestamptz NOT NULL,
    run_id          bigint,
    PRIMARY KEY (kind, environment, transaction_id)
);
COMMENT ON TABLE apple_history_revision IS 'The revision of the last transaction or refund history page fetched for '
    'a transaction: the next fetch asks only for what changed.';
