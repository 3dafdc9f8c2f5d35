-- Known files are not re-read (docs/decisions.md, "Known files"). A daily run finds the whole history in its input
-- folders; hashing every file again costs what the history costs, not what the day brings. known_file remembers, per
-- path, the size and modification time a file had when all of its bytes were found stored, and their hash: a later
-- run that finds the same path with the same size and modification time skips the file unread (`--rehash` reads all).
--
-- One row per (kind, path), replaced when the path's file changes: a renamed or copied file gets a row for its new
-- path after it was hashed once, which input_file (one row per content) cannot hold. The foreign key says the hash
-- is that of a stored file. A row is written only when the read took the whole file and the file was older than the
-- settling time, so a growing, half-read or just-written file is never taken for done.
CREATE TABLE known_file (
    kind         text NOT NULL,
    path         text NOT NULL,
    size_bytes   bigint NOT NULL,
    modified_ns  bigint NOT NULL,
    sha256       bytea NOT NULL,
    checked_at   timestamptz NOT NULL,
    run_id       bigint,
    PRIMARY KEY (kind, path),
    FOREIGN KEY (kind, sha256) REFERENCES input_file (kind, sha256)
);
COMMENT ON TABLE known_file IS 'Paths whose whole content is stored, with the size and modification time the file '
    'had then: a run skips such a file unread while both are unchanged.';
COMMENT ON COLUMN known_file.modified_ns IS 'The file''s modification time in nanoseconds since 1970, compared '
    'exactly (timestamptz keeps microseconds only).';
