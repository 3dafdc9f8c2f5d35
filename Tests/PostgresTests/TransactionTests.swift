import Postgres
import Testing

private struct Abandon: Error {}

@Suite struct TransactionTests {
    @Test func aRolledBackSavepointKeepsTheOuterWork() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE work (step text)")
        try connection.transaction {
            try connection.query("INSERT INTO work VALUES ($1)", ["outer before"])
            #expect(throws: Abandon.self) {
                try connection.transaction {
                    try connection.query("INSERT INTO work VALUES ($1)", ["inner"])
                    throw Abandon()
                }
            }
            _ = try connection.transaction {
                try connection.query("INSERT INTO work VALUES ($1)", ["inner kept"])
            }
            try connection.query("INSERT INTO work VALUES ($1)", ["outer after"])
        }
        let steps = try connection.query("SELECT step FROM work ORDER BY step").rows.map { $0[0] }
        #expect(steps == ["inner kept", "outer after", "outer before"])
    }

    @Test func aFailedStatementInsideASavepointLeavesTheOuterTransactionUsable() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE keys (key int PRIMARY KEY)")
        try connection.transaction {
            try connection.query("INSERT INTO keys VALUES (1)")
            let error = #expect(throws: PostgresError.self) {
                try connection.transaction { try connection.query("INSERT INTO keys VALUES (1)") }
            }
            #expect(error?.isUniqueViolation == true)
            try connection.query("INSERT INTO keys VALUES (2)")
        }
        #expect(try connection.query("SELECT count(*) FROM keys").requireInt(0, 0) == 2)
    }

    @Test func aDryRunKeepsNothing() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE work (step text)")
        _ = try connection.rollingBack {
            try connection.transaction { try connection.query("INSERT INTO work VALUES ('x')") }
        }
        #expect(try connection.query("SELECT count(*) FROM work").requireInt(0, 0) == 0)
    }
}
