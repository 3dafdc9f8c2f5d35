-- Whether the report site has a view of the open flags of one rule and of one severity (`flags/rule-….html`,
-- `flags/severity-….html`): it has one when any open flag has that rule or severity, so a decided flag's page links
-- to them only then. For one flag's page served live, whose site covers every open flag. $1: the flag's rule; $2: its
-- severity. (Uncorrelated, so a Citus coordinator plans each EXISTS on its own.)
SELECT EXISTS (SELECT 1 FROM flags_open WHERE rule = $1) AS rule_has_view,
       EXISTS (SELECT 1 FROM flags_open WHERE severity = $2) AS severity_has_view
