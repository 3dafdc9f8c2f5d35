internal import Postgres

extension Workspace {
    /// How many flags are open, confirmed and dismissed (superseded ones left out): `run`'s triage line.
    package func flagStatusCounts() throws -> [String: Int] {
        let rows = try connection.query(
            "SELECT status, count(*)::integer AS flags FROM flag WHERE status <> 'superseded' GROUP BY status",
            context: "count flags by status")
        var counts = ["open": 0, "confirmed": 0, "dismissed": 0]
        for row in rows.allRows { counts[try row.decode(String.self, "status")] = try row.decode(Int.self, "flags") }
        return counts
    }
}
