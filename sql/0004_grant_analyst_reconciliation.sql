-- Fraud analysts also read reconciliation: a purchase Apple never reported (missing-in-report) is often the other
-- face of a replayed or forged receipt. Reconciliation lines and the catalog hold no raw input text; the report rows
-- themselves (every column verbatim) stay out of the analyst role's reach.
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        GRANT SELECT ON reconciliation_line, app, product TO iap_audit_analyst;
    END IF;
END
$$;
