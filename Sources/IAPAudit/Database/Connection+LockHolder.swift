internal import Postgres

extension Connection {
    /// Describes the session holding advisory lock `key` (application, pid, since when), if any: who a command that
    /// found the lock taken names.
    func advisoryLockHolder(_ key: Int64) throws -> String? {
        let result = try query(SQLQuery.advisoryLockHolder.text, [key], context: "find lock holder")
        guard let row = result.allRows.first else { return nil }
        let field = { (column: String) throws in try row.string(column) ?? "?" }
        return "\(try field("application")) (server pid \(try field("pid")), from \(try field("client")), "
            + "connected since \(try field("since")))"
    }
}
