-- Marks every receipt and sales file stored as reconciled, by run $1 (null outside a run).
INSERT INTO reconcile_file (file_id, run_id)
SELECT f.id, $1 FROM input_file f
WHERE f.kind IN ('receipts', 'sales') AND NOT EXISTS (SELECT 1 FROM reconcile_file d WHERE d.file_id = f.id)
