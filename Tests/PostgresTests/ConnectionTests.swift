import EmbeddedPostgres
import Logging
import Postgres
import TestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func failingToConnectIsUnavailable() throws {
        let endpoint = try TestPostgres.endpoint()
        // A socket directory without a server: libpq cannot connect.
        let conninfo = "host=\(endpoint.socketDirectory)/absent port=\(endpoint.port) dbname=postgres"
        let error = #expect(throws: PostgresError.self) {
            try Connection(conninfo: conninfo, logger: TestPostgres.logger)
        }
        #expect(error?.kind == .connection)
        #expect(error?.isUnavailable == true)
        #expect(error?.description.contains("absent") == true, "libpq's own message names the socket it tried")
    }

    @Test func bindsParametersOutOfBandAndReturnsNulls() throws {
        let connection = try freshConnection()
        let result = try connection.query(
            "SELECT $1::text AS quoted, $2::int + 1 AS next, $3::text IS NULL AS missing, NULL::int AS nothing",
            ["it's'; DROP TABLE x; --", 41, nil])
        #expect(result.rowCount == 1)
        #expect(result.columnNames == ["quoted", "next", "missing", "nothing"])
        #expect(try result.requireString(0, 0) == "it's'; DROP TABLE x; --")
        #expect(try result.requireInt(0, 1) == 42)
        #expect(try result.requireBool(0, 2))
        #expect(result.string(0, 3) == nil)
        #expect(try result.decode(Int?.self, 0, 3) == nil)
    }

    @Test func typedDecodingThrowsOnNullAndOnANonInteger() throws {
        let connection = try freshConnection()
        let result = try connection.query("SELECT NULL::bigint AS total, 'twelve'::text AS count, '12'::text AS fine")
        let null = #expect(throws: PostgresError.self) { try result.requireInt(0, 0) }
        #expect(null?.kind == .decoding)
        #expect(null?.description == #"column "total" row 0: expected an integer, found NULL"#)
        let text = #expect(throws: PostgresError.self) { try result.decode(Int.self, 0, 1) }
        #expect(text?.description == #"column "count" row 0: expected an integer, found "twelve""#)
        #expect(throws: PostgresError.self) { try result.decode(Int?.self, 0, 1) }
        #expect(try result.decode(Int.self, 0, 2) == 12)
        #expect(throws: PostgresError.self) { try result.requireInt(1, 0) }
        #expect(null?.isUnavailable == false)
    }

    @Test func byteaParametersRoundTrip() throws {
        let connection = try freshConnection()
        let bytes = PostgresBytes(Array(0...255) + [0, 0x5C, 0x22])
        let result = try connection.query("SELECT $1::bytea, length($1::bytea), $2::bytea", [bytes, PostgresBytes([])])
        #expect(try result.decode(PostgresBytes.self, 0, 0) == bytes)
        #expect(try result.requireInt(0, 1) == 259)
        #expect(try result.decode(PostgresBytes.self, 0, 2) == PostgresBytes([]))
    }

    @Test func textArrayParametersRoundTrip() throws {
        let connection = try freshConnection()
        let elements: [String?] = [
            "plain", "", "NULL", "null", nil, "a,b", "{braces}", #"quote " inside"#, #"back\slash"#, "  spaced  ",
            "tab\tand\nnewline", "ünïcödé",
        ]
        let result = try connection.query(
            "SELECT cardinality($1::text[]), t.value, t.value IS NULL FROM unnest($1::text[]) WITH ORDINALITY"
                + " AS t(value, position) ORDER BY position",
            [PostgresTextArray(elements)])
        #expect(result.rowCount == elements.count)
        #expect(try result.requireInt(0, 0) == elements.count)
        #expect((0..<result.rowCount).map { result.string($0, 1) } == elements)
        #expect(try result.requireBool(4, 2), "nil is an SQL NULL element, not the text NULL")
        #expect(try !result.requireBool(2, 2), "the text NULL stays text")

        let strings = try connection.query("SELECT $1::text[] = ARRAY['x', '', 'y,z']", [["x", "", "y,z"]])
        #expect(try strings.requireBool(0, 0))
        let empty = try connection.query("SELECT cardinality($1::text[])", [[String]()])
        #expect(try empty.requireInt(0, 0) == 0)
    }
}
