internal import Postgres

extension Connection {
    /// Runs `body` with the planner set for statements that read a few rows by index: a day's subjects, a batch of
    /// pages, a report window. The planner cannot know how few rows they read; it estimates from the whole tables, so
    /// - it JIT-compiles plans for hundreds of milliseconds that then run in a few: JIT is off;
    /// - it prices each index lookup as a disk seek (`random_page_cost` 4) and prefers to hash a whole table, whose
    ///   size grows with the history, over a few hundred lookups in pages a daily run finds in memory: 1.1, the
    ///   figure PostgreSQL's documentation gives for data that is mostly cached or on SSDs.
    /// With `condition` false (a full run, all history), the settings stay as they are.
    func plannedForFewRows<T>(if condition: Bool = true, _ body: () throws -> T) throws -> T {
        guard condition else { return try body() }
        try execute(
            script: Self.fewRowsSettings.map { "SET \($0.name) = \($0.value)" }.joined(separator: "; "),
            context: "plan for a few rows")
        defer {
            _ = try? execute(
                script: Self.fewRowsSettings.map { "RESET \($0.name)" }.joined(separator: "; "),
                context: "reset the planner settings")
        }
        return try body()
    }

    /// The settings of `plannedForFewRows` until the current transaction ends (`SET LOCAL`), for a transaction that
    /// learns part-way whether it reads a few rows or all of them.
    func planForFewRowsUntilCommit() throws {
        try execute(
            script: Self.fewRowsSettings.map { "SET LOCAL \($0.name) = \($0.value)" }.joined(separator: "; "),
            context: "plan for a few rows")
    }

    private static let fewRowsSettings: [(name: String, value: String)] = [("jit", "off"), ("random_page_cost", "1.1")]
}
