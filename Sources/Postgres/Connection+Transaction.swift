extension Connection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    ///
    /// Nested calls become savepoints, so a unit of work that commits on its own (one input file) can also run
    /// inside a larger transaction that is rolled back as a whole (a dry run).
    package func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        let depth = transactionDepth
        let savepoint = "iap_audit_\(depth)"
        try execute(script: depth == 0 ? "BEGIN" : "SAVEPOINT \(savepoint)", context: "begin transaction")
        transactionDepth += 1
        defer { transactionDepth = depth }
        do {
            let result = try body()
            if depth > 0 {
                // A savepoint's release fires no ON COMMIT DROP: drop the unit's temporary tables as its own COMMIT
                // would have, so the next unit can create them again. (Nested units own no outer temporary tables.)
                try execute(script: "DISCARD TEMP", context: "drop temporary tables")
            }
            try execute(script: depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)", context: "commit")
            return result
        } catch {
            // The connection may be gone; the original error is the one worth reporting.
            let rollback = depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint)"
            _ = try? execute(script: rollback, context: "rollback")
            throw error
        }
    }

    /// Runs `body` in a transaction that is always rolled back: everything is checked, nothing is kept.
    package func rollingBack<Result>(_ body: () throws -> Result) throws -> Result {
        guard transactionDepth == 0 else {
            throw PostgresError(kind: .protocolViolation, message: "a dry run cannot start inside a transaction")
        }
        try execute(script: "BEGIN", context: "begin dry run")
        transactionDepth = 1
        defer {
            transactionDepth = 0
            _ = try? execute(script: "ROLLBACK", context: "end dry run")
        }
        return try body()
    }

    /// Takes a session-level advisory lock without waiting; true when this session now holds it.
    package func tryAdvisoryLock(_ key: Int64) throws(PostgresError) -> Bool {
        try query("SELECT pg_try_advisory_lock($1) AS locked", [key], context: "advisory lock")
            .first(Bool?.self, "locked") ?? false
    }

    /// Releases a session-level advisory lock taken with `tryAdvisoryLock`.
    package func advisoryUnlock(_ key: Int64) throws(PostgresError) {
        try query("SELECT pg_advisory_unlock($1)", [key], context: "advisory unlock")
    }

    /// Takes a transaction-level advisory lock, waiting for it; released at COMMIT or ROLLBACK.
    package func advisoryTransactionLock(_ key: Int64) throws(PostgresError) {
        try query("SELECT pg_advisory_xact_lock($1)", [key], context: "advisory lock")
    }
}
