internal import Postgres

extension Connection {
    /// Runs `body` with PostgreSQL's JIT compiler off. The planner cannot know how few rows a statement over a day's
    /// subjects or a report window reads: it estimates from the whole tables and compiles plans for hundreds of
    /// milliseconds that then run in a few. With `condition` false (a full run, all history), JIT stays as it is.
    func withoutJIT<T>(if condition: Bool = true, _ body: () throws -> T) throws -> T {
        guard condition else { return try body() }
        try execute(script: "SET jit = off", context: "turn JIT off")
        defer { try? execute(script: "RESET jit", context: "reset jit") }
        return try body()
    }
}
