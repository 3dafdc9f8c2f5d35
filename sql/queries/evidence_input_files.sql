-- Where an evidence bundle's records came from: each input file with its SHA-256, size and path as ingested, and the
-- run that ingested it (command, start, host, version). $1 input file ids. One JSON object a file.
SELECT jsonb_build_object(
           'file_id', i.id, 'sha256', encode(i.sha256, 'hex'), 'size_bytes', i.size_bytes, 'kind', i.kind,
           'path', i.path, 'compression', i.compression, 'ingested_at', i.ingested_at AT TIME ZONE 'UTC',
           'records_read', i.records_read, 'records_stored', i.records_stored,
           'records_quarantined', i.records_quarantined, 'run_id', i.run_id, 'run_command', r.command,
           'run_started_at', r.started_at AT TIME ZONE 'UTC', 'run_host', r.host, 'run_version', r.version
       )::text AS file
FROM input_file i
LEFT JOIN pipeline_run r ON r.id = i.run_id
WHERE i.id = ANY($1::bigint[])
ORDER BY i.id
