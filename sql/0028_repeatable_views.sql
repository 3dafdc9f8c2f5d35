-- Views are defined once, each in sql/views/<name>.sql, and re-created by the migrator whenever that text changes
-- (docs/architecture.md, "Views"): numbered migrations no longer re-declare them. This table records the text each
-- view was last created from, as schema_migration does for the numbered files.
CREATE TABLE schema_view (
    name        text PRIMARY KEY,
    checksum    text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE schema_view IS 'Each view of sql/views/ and the SHA-256 of the text it was last created from; a '
    'view whose file says otherwise, or that is missing, is created again after the numbered migrations.';
