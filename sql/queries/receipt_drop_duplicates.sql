-- Removes the records receipt_dedupe.sql (or, on Citus, its .citus.sql form) listed in stage_duplicate, with
-- everything stored or staged for them, and returns the transactions of the staged copies it dropped. One list of
-- the receipt-side tables for both forms: a table keyed by receipt id that a migration adds belongs here. Runs in
-- the file's transaction, right after the dedupe, when it found any.
-- Statements end with ';' at the end of a line.
--
-- The deletes probe the primary keys with an array: a temporary table has no statistics, and planned as a join they
-- read all of receipt_purchase for every file, duplicates or not.
DELETE FROM receipt WHERE id = ANY (ARRAY(SELECT id FROM stage_duplicate));
DELETE FROM receipt_purchase WHERE receipt_id = ANY (ARRAY(SELECT id FROM stage_duplicate));
DELETE FROM pending_renewal WHERE receipt_id = ANY (ARRAY(SELECT id FROM stage_duplicate));
DELETE FROM signed_object WHERE receipt_id = ANY (ARRAY(SELECT id FROM stage_duplicate));
-- Last: the transactions whose staged copies went with the records, which the merge never sees; the loader must not
-- take them as settled (SettledTransactions).
WITH dropped AS (
    DELETE FROM stage_entry WHERE receipt_id = ANY (ARRAY(SELECT id FROM stage_duplicate))
    RETURNING environment, transaction_id
)
SELECT DISTINCT environment, transaction_id FROM dropped;
