-- The paths `known_file` holds with exactly the size, modification and change time and inode they have now: files
-- a run skips unread. $1 the kind; $2 to $6 parallel arrays of path, size, modification time (ns), change time
-- (ns), inode. A row from before 0022 has no change time or inode: it matches nothing, so the file is hashed once.
SELECT f.path
FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
    AS f (path, size_bytes, modified_ns, changed_ns, inode)
JOIN known_file k ON k.kind = $1 AND k.path = f.path AND k.size_bytes = f.size_bytes
    AND k.modified_ns = f.modified_ns AND k.changed_ns = f.changed_ns AND k.inode = f.inode
