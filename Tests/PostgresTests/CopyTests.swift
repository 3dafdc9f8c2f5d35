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

    /// Binary rows rendered in parts (a chunk at a time, as ingest's parsing thread renders them) are gathered and
    /// loaded in one COPY, in order; a value with no binary form in any part refuses the whole load.
    @Test func gatheredBinaryRowsLoadInOneCopy() throws {
        let connection = try freshConnection()
        try connection.execute(script: "CREATE TABLE gathered (id bigint, position int, value text, at timestamptz)")
        let copy = "COPY gathered (id, position, value, at) FROM STDIN (FORMAT binary)"
        var gathered = BinaryCopyRows()
        for part in 0..<3 {
            var rows = BinaryCopyRows()
            for position in 0..<2 {
                rows.beginRow(fieldCount: 4)
                rows.int64(part << 32 | position)
                rows.int32(position)
                rows.text(position == 0 ? "part \(part)" : nil)
                rows.timestamp(millisecondsSince1970: position == 1 ? 1_700_000_000_123 : nil)
                rows.endRow()
            }
            gathered.append(rows: rows)
        }
        #expect(gathered.rowCount == 6)
        #expect(try connection.copyInBinary(copy, rows: gathered) == 6)
        let result = try connection.query(
            """
            SELECT string_agg(concat_ws('/', id >> 32, position, value, \
            to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')), ' ' ORDER BY id) AS rows FROM gathered
            """)
        #expect(
            result.string(0, 0)
                == "0/0/part 0 0/1/2023-11-14 22:13:20.123 1/0/part 1 1/1/2023-11-14 22:13:20.123 2/0/part 2 "
                + "2/1/2023-11-14 22:13:20.123")

        var refused = BinaryCopyRows()
        refused.beginRow(fieldCount: 4)
        refused.int64(9)
        refused.int32(Int(Int32.max) + 1)
        refused.text(nil)
        refused.timestamp(millisecondsSince1970: nil)
        refused.endRow()
        var withRefused = BinaryCopyRows()
        withRefused.append(rows: gathered)
        withRefused.append(rows: refused)
        #expect(throws: PostgresError.self) { try connection.copyInBinary(copy, rows: withRefused) }
        #expect(try connection.query("SELECT count(*) FROM gathered").requireInt(0, 0) == 6)
    }
}
