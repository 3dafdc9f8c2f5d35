-- Issue 30. Two things a run must not trust: a file's modification time, and the analyst's good manners.
--
-- known_file also keeps the inode change time and the inode: `touch -r`, `rsync -t` or a restore from backup can put
-- new bytes under the old size and modification time, but not under the old change time (no call sets it) or, for
-- a replaced file, the old inode. Rows from before have neither and match nothing: such a file is hashed once more.
ALTER TABLE known_file
    ADD COLUMN changed_ns bigint,
    ADD COLUMN inode bigint;
COMMENT ON COLUMN known_file.changed_ns IS 'The file''s inode change time in nanoseconds since 1970: moves with every '
    'write and cannot be set back, so a file skipped unread is one nothing could have changed.';
COMMENT ON COLUMN known_file.inode IS 'The file''s inode number (its 64 bits as bigint): a file replaced under the '
    'same path has another.';

-- The analyst role must not take the pipeline's locks (a session holding the run's advisory lock stops every run)
-- nor create large objects (rows outside any table: a way to fill the disk). PostgreSQL grants the functions to
-- PUBLIC and only their owner, a superuser, can take them back: the embedded server does it when it sets up its
-- roles (in template1 too, so a database made later inherits it); here it is done when the migrating role can, and
-- otherwise a DBA runs the same statements (docs/operating.md).
DO $$
DECLARE
    routine regprocedure;
BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
        RAISE NOTICE 'not a superuser: the advisory-lock and large-object functions stay with PUBLIC until a DBA '
            'revokes them (docs/operating.md, "The analyst role")';
        RETURN;
    END IF;
    FOR routine IN
        SELECT p.oid::regprocedure FROM pg_proc p
        WHERE p.pronamespace = 'pg_catalog'::regnamespace
          AND (p.proname LIKE '%advisory%' OR p.proname IN ('lo_creat', 'lo_create', 'lo_from_bytea', 'lo_import'))
    LOOP
        EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', routine);
        IF routine::text LIKE '%advisory%' THEN
            EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO %I', routine, current_user);
        END IF;
    END LOOP;
END
$$;
