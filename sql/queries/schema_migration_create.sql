-- The table of the numbered migrations applied, each with the checksum of its text, created before the first
-- one runs.
CREATE TABLE IF NOT EXISTS schema_migration (
    version     integer PRIMARY KEY,
    name        text NOT NULL,
    checksum    text NOT NULL,
    applied_at  timestamptz NOT NULL DEFAULT now()
)
