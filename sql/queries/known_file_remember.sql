-- Remembers a file stored whole, as it is now, so later runs skip it unread while it stays so. $1 the kind, $2 the
-- path, $3 its size, $4 its modification time (ns), $5 the SHA-256 of its bytes, $6 the run, $7 its change time
-- (ns), $8 its inode.
INSERT INTO known_file (kind, path, size_bytes, modified_ns, sha256, checked_at, run_id, changed_ns, inode)
VALUES ($1, $2, $3, $4, $5::bytea, now(), $6, $7, $8)
ON CONFLICT (kind, path) DO UPDATE SET size_bytes = excluded.size_bytes,
    modified_ns = excluded.modified_ns, sha256 = excluded.sha256, checked_at = excluded.checked_at,
    run_id = excluded.run_id, changed_ns = excluded.changed_ns, inode = excluded.inode
