-- Issue 34, item 4: erasure on request (docs/privacy.md). `iap-audit erase` removes a customer's account key and app
-- account tokens from every table and record that holds them, keeps the anonymous sales, and appends one row here.
-- Forward only: never edit this file once released; add a new numbered migration instead.
--
-- The row says who asked for the erasure, when, by which kind of identifier, and how many rows of each table it
-- changed; it never holds the key or the token (nor a hash of them: a hash of a key is the key again to anyone who
-- holds the key). `reference` is the operator's own name for the request (a ticket number) that ties the row to it.
CREATE TABLE erasure (
    id             bigserial PRIMARY KEY,
    run_id         bigint,
    erased_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    actor          text NOT NULL CHECK (btrim(actor) <> ''),
    database_user  text NOT NULL DEFAULT session_user,
    requested_by   text NOT NULL CHECK (requested_by IN ('account-key', 'app-account-token', 'both')),
    reference      text NOT NULL DEFAULT '',
    account_keys   integer NOT NULL,
    tokens         integer NOT NULL,
    rows           jsonb NOT NULL
);
COMMENT ON TABLE erasure IS 'One row per iap-audit erase: who (actor, database_user), when, by which kind of '
    'identifier, the operator''s reference, how many account keys and app account tokens it found, and the rows '
    'changed per table (rows). Never the key or token itself. Appended only.';

-- Appended only, as flag_decision is: the record of an erasure is what shows it was done. One statement trigger
-- refuses every UPDATE, DELETE and TRUNCATE, for the owner's ordinary statements too.
CREATE FUNCTION erasure_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'erasure is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER erasure_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON erasure
    FOR EACH STATEMENT EXECUTE FUNCTION erasure_refuse_change();

-- Nobody but the pipeline writes it (the trigger stops even the pipeline from changing it); analysts may read it.
REVOKE ALL ON FUNCTION erasure_refuse_change() FROM PUBLIC;
REVOKE ALL ON erasure FROM PUBLIC;
DO $$ BEGIN
    IF to_regrole('iap_audit_analyst') IS NOT NULL THEN GRANT SELECT ON erasure TO iap_audit_analyst; END IF;
END $$;
