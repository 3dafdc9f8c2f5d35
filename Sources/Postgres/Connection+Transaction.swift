extension Connection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute(script: "BEGIN", context: "begin transaction")
        do {
            let result = try body()
            try execute(script: "COMMIT", context: "commit")
            return result
        } catch {
            // The connection may be gone; the original error is the one worth reporting.
            try? execute(script: "ROLLBACK", context: "rollback")
            throw error
        }
    }

    /// Takes a session-level advisory lock without waiting; true when this session now holds it.
    public func tryAdvisoryLock(_ key: Int64) throws(PostgresError) -> Bool {
        try query("SELECT pg_try_advisory_lock($1)", [key], context: "advisory lock").bool(0, 0) ?? false
    }

    /// Releases a session-level advisory lock taken with `tryAdvisoryLock`.
    public func advisoryUnlock(_ key: Int64) throws(PostgresError) {
        try query("SELECT pg_advisory_unlock($1)", [key], context: "advisory unlock")
    }

    /// Takes a transaction-level advisory lock, waiting for it; released at COMMIT or ROLLBACK.
    public func advisoryTransactionLock(_ key: Int64) throws(PostgresError) {
        try query("SELECT pg_advisory_xact_lock($1)", [key], context: "advisory lock")
    }

    /// Describes the session holding advisory lock `key` (application, pid, since when), if any.
    public func advisoryLockHolder(_ key: Int64) throws(PostgresError) -> String? {
        // pg_locks splits a bigint key into classid (high 32 bits) and objid (low 32 bits).
        let result = try query(
            """
            SELECT a.pid, coalesce(nullif(a.application_name, ''), '?'), coalesce(a.client_hostname,
                   host(a.client_addr), 'local socket'), to_char(a.backend_start, 'YYYY-MM-DD HH24:MI:SS TZ')
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted
              AND l.classid = (($1::bigint >> 32) & 4294967295)::bigint::oid
              AND l.objid = ($1::bigint & 4294967295)::bigint::oid AND l.objsubid = 1
            LIMIT 1
            """, [key], context: "find lock holder")
        guard result.rowCount > 0 else { return nil }
        return "\(result.string(0, 1) ?? "?") (server pid \(result.string(0, 0) ?? "?"), "
            + "from \(result.string(0, 2) ?? "?"), connected since \(result.string(0, 3) ?? "?"))"
    }
}
