-- A record is stored once however the files that carry it are cut, grown or copied (docs/decisions.md, "Record
-- identity"). Two parts:
--
-- * receipt.record_key: the first 64 bits of SHA-256 over the stored record and its account key. A file's records
--   whose key, stored text and account match a receipt stored before are dropped before its transactions merge
--   (queries/receipt_dedupe.sql); the key finds candidates, the text decides, so a 64-bit collision cannot drop a
--   record. Receipts stored before this migration get their key here, computed the same way.
-- * input_file rows for the parts of a growing file: a recorder appends to today's file, a run reads it up to its
--   last complete line, the next run reads on from there (start_offset, start_line) instead of reading it whole.
--   Each row's sha256 is that of the file's bytes [0, size_bytes): what had been read when the row was written.
ALTER TABLE receipt ADD COLUMN record_key bigint;
UPDATE receipt SET record_key = ('x' || left(encode(sha256(
        convert_to(raw, 'UTF8') || '\x00'::bytea || convert_to(coalesce(account_key, ''), 'UTF8')), 'hex'), 16)
    )::bit(64)::bigint;
CREATE INDEX receipt_record_key_idx ON receipt (record_key);
COMMENT ON COLUMN receipt.record_key IS 'First 64 bits of SHA-256(raw || 0x00 || account_key): the record''s identity.';

-- The same bytes can be a receipt file and a report file (an empty day, a test file): a file is one per kind.
ALTER TABLE input_file DROP CONSTRAINT input_file_sha256_key;
ALTER TABLE input_file ADD CONSTRAINT input_file_kind_sha256_key UNIQUE (kind, sha256);

ALTER TABLE input_file
    ADD COLUMN start_offset bigint NOT NULL DEFAULT 0,
    ADD COLUMN start_line integer NOT NULL DEFAULT 1,
    ADD COLUMN end_line integer,
    ADD COLUMN continues_file_id bigint REFERENCES input_file (id),
    ADD COLUMN modified_at timestamptz,
    ADD COLUMN records_already_stored integer NOT NULL DEFAULT 0;
CREATE INDEX input_file_path_idx ON input_file (kind, path, size_bytes);
COMMENT ON COLUMN input_file.start_offset IS 'Where this read of the file began: 0, or where an earlier read ended.';
COMMENT ON COLUMN input_file.end_line IS 'The last line this read consumed (JSON Lines), so a later read numbers on.';
COMMENT ON COLUMN input_file.records_already_stored IS 'Records read that an earlier file had stored already.';
