-- Keys a Citus cluster can enforce (issue 14, docs/scale.md). Citus, like PostgreSQL's partitioning, enforces a
-- unique constraint of a distributed table only if it includes the distribution column. Three bulk tables were keyed
-- by a surrogate id alone; each now has as primary key the natural key it already had as a unique constraint, and
-- its id, where anything looks it up, keeps a plain index (ids still come from one sequence each, so they
-- stay unique; nothing else changes for plain PostgreSQL). Each key's index is built once more here: a constraint's
-- index cannot become another constraint's.
--
-- purchase: keyed by (environment, transaction_id), distributed by transaction_id.
ALTER TABLE purchase DROP CONSTRAINT purchase_pkey, DROP CONSTRAINT purchase_environment_transaction_id_key,
    ADD PRIMARY KEY (environment, transaction_id);
CREATE INDEX purchase_id_idx ON purchase (id);

-- flag: one per (rule, subject_kind, subject_key), distributed by subject_key.
ALTER TABLE flag DROP CONSTRAINT flag_pkey, DROP CONSTRAINT flag_rule_subject_kind_subject_key_key,
    ADD PRIMARY KEY (rule, subject_kind, subject_key);
CREATE INDEX flag_id_idx ON flag (id);

-- purchase_conflict: one per disagreeing copy, (receipt_id, source, ordinal), distributed by receipt_id.
ALTER TABLE purchase_conflict DROP CONSTRAINT purchase_conflict_pkey,
    DROP CONSTRAINT purchase_conflict_receipt_id_source_ordinal_key, ADD PRIMARY KEY (receipt_id, source, ordinal);
