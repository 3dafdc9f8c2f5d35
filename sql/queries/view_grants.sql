-- The GRANT statements that give a view's readers SELECT on it, one for each reader role that exists: roles are
-- cluster-wide and created by a DBA, so one not created yet is skipped (docs/operating.md, "The analyst role").
-- $1: the view's name; $2: an array of its readers' role names.
SELECT format('GRANT SELECT ON %I TO %I', $1::text, rolname) AS statement
FROM pg_roles
WHERE rolname = ANY ($2::text[])
