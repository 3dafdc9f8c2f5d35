-- The analyst role reads; it never writes, not even scratch objects. PostgreSQL grants TEMP on every database
-- and (before 15) CREATE on the public schema to PUBLIC, so an analyst's login could create temporary tables and
-- functions, or objects beside the pipeline's. Take both from PUBLIC and give them back to the role that runs the
-- pipeline (which needs temporary tables for every stage).
--
-- receipt_summary (every receipt without its raw record) and account_purchase (each purchase once per app account,
-- with its store account) stay readable on purpose: they hold keys and facts the analyst views already show, no raw
-- input text, and they are what an analyst's own queries join. The README lists them.
DO $$
BEGIN
    EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO %I', current_database(), current_user);
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
    EXECUTE format('GRANT CREATE ON SCHEMA public TO %I', current_user);
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'iap_audit_analyst') THEN
        EXECUTE format('REVOKE TEMPORARY, CREATE ON DATABASE %I FROM iap_audit_analyst', current_database());
        REVOKE CREATE ON SCHEMA public FROM iap_audit_analyst;
    END IF;
END
$$;
