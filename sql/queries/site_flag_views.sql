-- Whether the report site has a view of the open flags of flag $1's rule and of its severity (`flags/rule-….html`,
-- `flags/severity-….html`): it has one when any open flag has that rule or severity, so a decided flag's page links
-- to them only then. For one flag's page served live, whose site covers every open flag. No row: no such flag.
SELECT EXISTS (SELECT 1 FROM flags_open o WHERE o.rule = f.rule) AS rule_has_view,
       EXISTS (SELECT 1 FROM flags_open o WHERE o.severity = f.severity) AS severity_has_view
FROM flag f
WHERE f.id = $1
