-- Records the settings the stored lines were made with: $1 the time zone, $2 the catalog's fingerprint
-- (reconcile_catalog_fingerprint.sql). A later incremental reconcile with others covers every day.
INSERT INTO reconcile_state (name, value) VALUES ('time_zone', $1), ('catalog', $2)
ON CONFLICT (name) DO UPDATE SET value = excluded.value
