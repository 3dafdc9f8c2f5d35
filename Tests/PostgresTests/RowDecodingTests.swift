import Postgres
import Testing

/// Rows read by column name: a query's columns may be reordered, and a missing or renamed one is an error naming it.
@Suite struct RowDecodingTests {
    struct Purchase: PostgresRecord, Equatable {
        var id: Int64
        var product: String
        var refunded: Bool?

        init(id: Int64, product: String, refunded: Bool?) {
            self.id = id
            self.product = product
            self.refunded = refunded
        }

        init(row: QueryResult.Row) throws(PostgresError) {
            id = try row.decode(Int64.self, "id")
            product = try row.decode(String.self, "product")
            refunded = try row.decode(Bool?.self, "refunded")
        }
    }

    @Test func readsColumnsByNameWhateverTheirOrder() throws {
        let connection = try freshConnection()
        let expected = [
            Purchase(id: 1, product: "coins", refunded: nil), Purchase(id: 2, product: "pro", refunded: true),
        ]
        for columns in ["id, product, refunded", "refunded, product, id"] {
            let result = try connection.query(
                "SELECT \(columns) FROM (VALUES (1::bigint, 'coins', NULL::boolean), (2, 'pro', true)) "
                    + "AS p (id, product, refunded) ORDER BY id")
            #expect(try result.decode([Purchase].self) == expected)
            #expect(try result.first(Int64.self, "id") == 1)
            #expect(try result.row(1).strings(["product", "refunded"]) == ["pro", "t"])
        }
    }

    @Test func aMissingColumnIsNamedWithTheColumnsThereAre() throws {
        let connection = try freshConnection()
        let result = try connection.query("SELECT 1::bigint AS id, 'coins' AS product_id")
        let error = #expect(throws: PostgresError.self) { try result.decode([Purchase].self) }
        #expect(error?.kind == .decoding)
        #expect(error?.description == "the result has no column product (its columns: id, product_id)")
    }

    @Test func aNullOrAnUnreadableValueNamesItsColumn() throws {
        let connection = try freshConnection()
        let result = try connection.query("SELECT NULL::bigint AS id, 'coins' AS product, 'maybe' AS refunded")
        let null = #expect(throws: PostgresError.self) { try result.first(Int64.self, "id") }
        #expect(null?.description == #"column "id" row 0: expected a 64-bit integer, found NULL"#)
        let text = #expect(throws: PostgresError.self) { try result.row(0).decode(Bool?.self, "refunded") }
        #expect(text?.description == #"column "refunded" row 0: expected a boolean, found "maybe""#)
        let empty = try connection.query("SELECT 1 AS id WHERE false")
        #expect(throws: PostgresError.self) { try empty.first(Int.self, "id") }
    }
}
