internal import Postgres

extension Connection {
    /// Runs `body` with PostgreSQL's JIT compiler off. The planner cannot know how few rows a statement over a day's
    /// subjects or a report window reads: it estimates from the whole tables and compiles plans for hundreds of
    /// milliseconds that then run in a few.
    func withoutJIT<T>(_ body: () throws -> T) throws -> T {
        try execute(script: "SET jit = off", context: "turn JIT off")
        defer { try? execute(script: "RESET jit", context: "reset jit") }
        return try body()
    }
}
