-- A date whose forms disagree (docs/decisions.md, Receipts): Apple writes the same instant as `key_ms`, `key` and
-- `key_pst`; when two of them are more than a day apart, the receipt keeps `key_ms` (as before) and the parser notes
-- the disagreement here, for the forged-fields rule. NULL when the receipt has none (almost all of them), so the
-- partial index holds only the few that do and the rule reads them without scanning every receipt.
--
-- Receipts stored before this migration keep NULL: their dates were not compared when they were read.
ALTER TABLE receipt ADD COLUMN date_disagreements jsonb;
CREATE INDEX receipt_date_disagreements_idx ON receipt (id) WHERE date_disagreements IS NOT NULL;
COMMENT ON COLUMN receipt.date_disagreements IS
    'Dates whose forms differ by more than a day: [{field, kept_member, kept, other_member, other}], else NULL.';
