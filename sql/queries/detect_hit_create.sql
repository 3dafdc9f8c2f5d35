-- The table one rule's hits go into before flag_upsert.sql merges them into flag; gone at the rule's commit.
CREATE TEMPORARY TABLE detect_hit (
    subject_kind text NOT NULL, subject_key text NOT NULL, severity text NOT NULL,
    window_start timestamptz, window_end timestamptz, score numeric NOT NULL,
    evidence jsonb NOT NULL
) ON COMMIT DROP
