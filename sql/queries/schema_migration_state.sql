-- Where the numbered migrations of a database stand against a binary's, changing nothing: the newest recorded
-- (0 when none is) and how many of the binary's are not recorded. $1: the binary's migration versions (int[]).
SELECT coalesce((SELECT max(version) FROM schema_migration), 0) AS newest,
       (SELECT count(*) FROM unnest($1::integer[]) AS b (version)
        WHERE NOT EXISTS (SELECT 1 FROM schema_migration m WHERE m.version = b.version))::integer AS missing
