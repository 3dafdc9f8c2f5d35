import Postgres
import Testing

@Suite struct CopyTests {
    @Test func copyTextEscapingRoundTrips() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE copied (position int, value text, data bytea)")
        let values: [String?] = [
            "tab\there", "new\nline", "carriage\rreturn", #"back\slash"#, #"\N"#, "\\.", nil, "", "ünïcödé",
            "trailing\\",
        ]
        let loaded = try connection.copyIn("COPY copied (position, value, data) FROM STDIN") { writer in
            for (position, value) in values.enumerated() {
                writer.field(position)
                writer.field(value)
                writer.field(bytea: Array((value ?? "").utf8))
                try writer.endRow()
            }
        }
        #expect(loaded == values.count)
        let result = try connection.query("SELECT value, data FROM copied ORDER BY position")
        #expect((0..<result.rowCount).map { result.string($0, 0) } == values)
        for row in 0..<result.rowCount {
            #expect(try result.decode(PostgresBytes.self, row, 1).bytes == Array((values[row] ?? "").utf8))
        }
        #expect(try connection.query("SELECT count(*) FROM copied WHERE value = '\\N'").requireInt(0, 0) == 1)
    }

    @Test func aFailedCopyReportsTheServersError() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE numbers (value int)")
        let error = #expect(throws: PostgresError.self) {
            try connection.copyIn("COPY numbers FROM STDIN", context: "COPY numbers") { writer in
                writer.field("not a number")
                try writer.endRow()
            }
        }
        #expect(error?.sqlState == "22P02")
        #expect(error?.context == "COPY numbers")
        #expect(error?.isUnavailable == false)
    }
}
