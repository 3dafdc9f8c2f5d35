-- Records what App Store Connect answered for each report file asked for (a later fetch asks again only for what
-- was not published). $1 to $5: arrays of the file names, report kinds, last days, answers and sizes in bytes (null:
-- none); $6: the run.
INSERT INTO apple_report_fetch (file_name, report, last_day, outcome, bytes, asked_at, run_id)
SELECT f, r, d::date, o, b::bigint, now(), $6
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS t(f, r, d, o, b)
ON CONFLICT (file_name) DO UPDATE SET outcome = excluded.outcome, bytes = excluded.bytes,
    asked_at = excluded.asked_at, run_id = excluded.run_id
