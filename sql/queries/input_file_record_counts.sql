-- Writes a loaded file's counts and the last line it consumed, so a later read of the grown file numbers on.
-- $1 the file's id, $2 records read, $3 stored, $4 quarantined, $5 transaction entries, $6 already stored,
-- $7 the last line (JSON Lines; null otherwise).
UPDATE input_file SET records_read = $2, records_stored = $3, records_quarantined = $4,
    transaction_entries = $5, records_already_stored = $6, end_line = $7 WHERE id = $1
