-- Records the text a view was created from, by its checksum (docs/architecture.md, "Migrations and views"). $1:
-- the view's name; $2: its checksum.
INSERT INTO schema_view (name, checksum) VALUES ($1, $2)
ON CONFLICT (name) DO UPDATE SET checksum = excluded.checksum, applied_at = now()
