internal import Postgres

extension Workspace {
    /// How many flags are open, confirmed and dismissed (superseded ones left out): `run`'s triage line.
    package func flagStatusCounts() throws -> [String: Int] {
        let rows = try connection.query(
            "SELECT status, count(*) FROM flag WHERE status <> 'superseded' GROUP BY status",
            context: "count flags by status")
        var counts = ["open": 0, "confirmed": 0, "dismissed": 0]
        for row in 0..<rows.rowCount { counts[try rows.requireString(row, 0)] = try rows.requireInt(row, 1) }
        return counts
    }
}
