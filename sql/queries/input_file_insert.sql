-- Records an input file (or the part of a growing file one read consumed) and returns its id. $1 the id (reserved
-- apart: Citus would evaluate a nextval default for every file), $2 the SHA-256 of the bytes read, $3 their size,
-- $4 the kind, $5 the path, $6 the compression, $7 the run, $8 and $9 where the read started (byte offset, line),
-- $10 the earlier read of the same file it continues, $11 the file's modification time (Unix seconds).
INSERT INTO input_file (id, sha256, size_bytes, kind, path, compression, run_id, start_offset, start_line,
    continues_file_id, modified_at)
VALUES ($1, $2::bytea, $3, $4, $5, $6, $7, $8, $9, $10, to_timestamp($11))
RETURNING id
