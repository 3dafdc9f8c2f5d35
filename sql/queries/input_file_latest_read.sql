-- The longest earlier read of a file at one path, which a grown file must begin with: its id, hash (hex), size, the
-- last line it consumed and whether it was gzip. $1: the kind (receipts, sales), $2: the path.
SELECT id, encode(sha256, 'hex') AS sha256, size_bytes, end_line, compression = 'gzip' AS is_gzip
FROM input_file
WHERE kind = $1 AND path = $2 ORDER BY size_bytes DESC, id DESC LIMIT 1
