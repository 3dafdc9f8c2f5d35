-- Drops the records of one file that an earlier file, or an earlier line of this one, stored already: same record
-- key, and then the same stored text and account (the key only finds candidates). Runs after the file's rows are
-- COPYed and before its transactions merge, in the file's transaction. $1: the file's id.
-- Statements end with ';' at the end of a line.
CREATE TEMPORARY TABLE stage_duplicate ON COMMIT DROP AS
SELECT r.id
FROM receipt r
WHERE r.id >= $1::bigint * 4294967296 AND r.id < ($1::bigint + 1) * 4294967296
  AND EXISTS (
      SELECT 1 FROM receipt o
      WHERE o.record_key = r.record_key AND o.id < r.id
        AND o.raw = r.raw AND o.account_key IS NOT DISTINCT FROM r.account_key
  );
DELETE FROM receipt WHERE id IN (SELECT id FROM stage_duplicate);
DELETE FROM receipt_purchase WHERE receipt_id IN (SELECT id FROM stage_duplicate);
DELETE FROM pending_renewal WHERE receipt_id IN (SELECT id FROM stage_duplicate);
DELETE FROM stage_entry WHERE receipt_id IN (SELECT id FROM stage_duplicate);
SELECT count(*) FROM stage_duplicate;
