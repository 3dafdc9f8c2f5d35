-- receipt_dedupe.sql's form for a Citus coordinator (docs/scale.md, "Citus"): the same stage_duplicate and count, in
-- steps.
-- On plain PostgreSQL these steps make ingest slower than its one statement (docs/scale.md), so it keeps that one.
-- $1: the file's id. Statements end with ';' at the end of a line.
--
-- Each step reads receipt by one of its keys and keeps what it found in a small temporary table, never joining
-- receipt to itself: on Citus (docs/scale.md) receipt is split by id, so records with one key are on any worker, and
-- a self-join on record_key cannot run there. The file's records, by their ids:
CREATE TEMPORARY TABLE stage_record ON COMMIT DROP AS
SELECT id, record_key
FROM receipt
WHERE id >= $1::bigint * 4294967296 AND id < ($1::bigint + 1) * 4294967296;
-- Every stored record with one of their keys, the file's own included: the record_key index probed with the keys.
-- Planned as a join instead, this hashed the whole receipt table for every file (before the first ANALYZE).
CREATE TEMPORARY TABLE stage_same_key ON COMMIT DROP AS
SELECT o.id, o.record_key
FROM receipt o
WHERE o.record_key = ANY (ARRAY(SELECT record_key FROM stage_record));
-- A record with an earlier one of the same key is a candidate; there are none in a file of new records.
CREATE TEMPORARY TABLE stage_candidate ON COMMIT DROP AS
SELECT r.id, o.id AS earlier_id
FROM stage_record r
JOIN stage_same_key o ON o.record_key = r.record_key AND o.id < r.id;
-- The candidates' and their earlier records' texts, to tell a duplicate from a collision of 64-bit keys.
CREATE TEMPORARY TABLE stage_text ON COMMIT DROP AS
SELECT id, raw, account_key
FROM receipt
WHERE id = ANY (ARRAY(SELECT id FROM stage_candidate UNION SELECT earlier_id FROM stage_candidate));
INSERT INTO stage_duplicate (id)
SELECT DISTINCT c.id
FROM stage_candidate c
JOIN stage_text t ON t.id = c.id
JOIN stage_text e ON e.id = c.earlier_id
WHERE e.raw = t.raw AND e.account_key IS NOT DISTINCT FROM t.account_key;
SELECT count(*) FROM stage_duplicate;
