-- The demo's flag of one rule, the highest score first, and whether it has a decision already (a second demo
-- decides nothing again). $1: the rule.
SELECT f.id, EXISTS (SELECT 1 FROM flag_decision d WHERE d.flag_id = f.id) AS decided
FROM flag f
WHERE f.rule = $1 AND f.status <> 'superseded'
ORDER BY f.score DESC, f.subject_kind, f.subject_key, f.id
LIMIT 1
