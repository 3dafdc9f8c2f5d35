-- An analyst's commands (`flags`, the console) check, as every reading command does, that the schema is this
-- binary's before they read it: the analyst role reads the migration and view ledgers for that, and the account-key
-- scheme a reading command compares with its own. Nothing else is granted; a role that does not exist is skipped.
DO $$ BEGIN
    IF to_regrole('iap_audit_analyst') IS NOT NULL THEN
        GRANT SELECT ON schema_migration, schema_view, install_setting TO iap_audit_analyst;
    END IF;
END $$;
