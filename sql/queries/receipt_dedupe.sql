-- Finds the records of one file that an earlier file, or an earlier line of this one, stored already: same record
-- key, and then the same stored text and account (the key only finds candidates), into stage_duplicate
-- (receipt_stage.sql), which receipt_drop_duplicates.sql then removes when there are any. Runs after the file's rows
-- are COPYed and before its transactions merge, in the file's transaction. $1: the file's id. Returns how many.
-- Statements end with ';' at the end of a line.
INSERT INTO stage_duplicate (id)
SELECT r.id
FROM receipt r
-- One probe of the record_key index per record of the file, whatever the statistics say. Written as EXISTS, the
-- planner hashed the whole receipt table for every file; with "o.id < r.id" as a condition of the probe (or min(o.id)),
-- it could walk the primary key instead (before the first ANALYZE). Both grow with the history, so the comparison of
-- ids is made inside an aggregate, where no index can serve it.
CROSS JOIN LATERAL (
    SELECT bool_or(o.id < r.id) AS stored_before
    FROM receipt o
    WHERE o.record_key = r.record_key AND o.id <> r.id AND o.raw = r.raw
      AND o.account_key IS NOT DISTINCT FROM r.account_key
) earlier
WHERE r.id >= $1::bigint * 4294967296 AND r.id < ($1::bigint + 1) * 4294967296
  AND earlier.stored_before;
SELECT count(*) FROM stage_duplicate;
