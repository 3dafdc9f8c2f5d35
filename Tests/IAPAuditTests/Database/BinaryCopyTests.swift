import Postgres
import Testing

/// Binary COPY rows arrive in PostgreSQL exactly as their text forms say.
struct BinaryCopyTests {
    @Test func everyFieldKindRoundTripsThroughARealServer() throws {
        let test = try TestWorkspace()
        try test.connection.execute(
            script: """
                CREATE TABLE copied (big bigint, small integer, flag boolean, name text, blob bytea,
                    at timestamptz, token uuid);
                """)
        var rows = BinaryCopyRows()
        rows.beginRow(fieldCount: 7)
        rows.int64(-(1 << 40) - 7)
        rows.int32(-2_147_483_648)
        rows.bool(true)
        rows.text("tab\there, \\backslash, newline\n and ünïcødé")
        rows.bytea([0x00, 0xFF, 0x5C])
        rows.timestamp(millisecondsSince1970: 1_393_677_005_123)
        rows.uuid("0F8FAD5B-D9CB-469F-A165-70867728950E")
        rows.endRow()
        rows.beginRow(fieldCount: 7)
        rows.int64(nil)
        rows.int32(nil)
        rows.bool(false)
        rows.text(nil)
        rows.bytea(nil)
        rows.timestamp(millisecondsSince1970: -1)
        rows.uuid(nil)
        rows.endRow()
        let loaded = try test.connection.copyInBinary(
            "COPY copied (big, small, flag, name, blob, at, token) FROM STDIN (FORMAT binary)"
        ) { try $0.append(binaryRows: rows) }
        #expect(loaded == 2)

        let result = try test.connection.query(
            """
            SELECT big::text, small::text, flag::text, name, encode(blob, 'hex'), to_char(at AT TIME ZONE 'UTC',
                'YYYY-MM-DD HH24:MI:SS.MS'), token::text
            FROM copied ORDER BY flag DESC
            """)
        #expect(
            result.rows == [
                [
                    "-1099511627783", "-2147483648", "true", "tab\there, \\backslash, newline\n and ünïcødé",
                    "00ff5c", "2014-03-01 12:30:05.123", "0f8fad5b-d9cb-469f-a165-70867728950e",
                ],
                [nil, nil, "false", nil, nil, "1969-12-31 23:59:59.999", nil],
            ])
    }

    @Test func aJSONBFieldIsStoredAsTheJSONItsTextSays() throws {
        let test = try TestWorkspace()
        try test.connection.execute(script: "CREATE TABLE copied (detail jsonb);")
        var rows = BinaryCopyRows()
        for value in [#"[{"field": "in_app[0].purchase_date", "n": 2}]"#, nil] {
            rows.beginRow(fieldCount: 1)
            rows.jsonb(utf8: value.map { Array($0.utf8) })
            rows.endRow()
        }
        let loaded = try test.connection.copyInBinary("COPY copied (detail) FROM STDIN (FORMAT binary)") {
            try $0.append(binaryRows: rows)
        }
        #expect(loaded == 2)
        let result = try test.connection.query(
            "SELECT detail -> 0 ->> 'field', (detail -> 0 ->> 'n')::int + 1 FROM copied ORDER BY detail NULLS LAST")
        #expect(result.rows == [["in_app[0].purchase_date", "3"], [nil, nil]])
    }

    @Test func aFieldOfTheWrongWidthIsRefusedByTheServer() throws {
        let test = try TestWorkspace()
        try test.connection.execute(script: "CREATE TABLE copied (small integer);")
        var rows = BinaryCopyRows()
        rows.beginRow(fieldCount: 1)
        rows.int64(1)
        rows.endRow()
        #expect(throws: PostgresError.self) {
            try test.connection.copyInBinary("COPY copied FROM STDIN (FORMAT binary)") {
                try $0.append(binaryRows: rows)
            }
        }
    }
}
