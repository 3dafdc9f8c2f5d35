-- readers: iap_audit_analyst
CREATE OR REPLACE VIEW rule_hits_daily AS
SELECT f.rule, (coalesce(f.window_end, f.created_at) AT TIME ZONE 'UTC')::date AS day, f.severity,
       count(*) AS hits
FROM flag f
WHERE f.status <> 'superseded'
GROUP BY 1, 2, 3;
COMMENT ON VIEW rule_hits_daily IS 'Flags per rule, severity and day of the last event they cover.';
