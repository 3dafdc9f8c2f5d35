import Foundation
import Postgres
import Testing

@testable import IAPAudit

/// The analysts' views in the forms Citus can run (docs/scale.md) give the rows their earlier forms gave, on the
/// planted data set.
extension FraudEndToEndTests {
    /// A view's rows as text, sorted: every column, or only `columns` (a comma-separated list).
    static func rows(of view: String, columns: String? = nil, on connection: Connection) throws -> [String] {
        let row = columns.map { "ROW(\($0))" } ?? "v"
        return try connection.query("SELECT \(row)::text FROM \(view) v ORDER BY 1").rows.map { $0[0] ?? "" }
    }

    /// The columns each view had in migration 0013, where a later change added some (sql/views/account_history.sql: its
    /// price and currency).
    static let columnsIn0013 = ["account_history": "v.account_key, v.at, v.kind, v.ref, v.detail"]

    @Test func viewsMigration20RewroteGiveWhatTheirEarlierFormsGave() throws {
        let connection = try Self.shared.get().test.connection
        let earlier = try #require(EmbeddedResources.migrations.first { $0.name.hasPrefix("0013_") }?.text)
        try connection.rollingBack {
            for view in ["store_account_clusters", "account_history"] {
                let statement = try #require(
                    SQLResources.splitStatements(earlier).first { $0.contains("CREATE VIEW \(view) AS") })
                try connection.execute(
                    script: statement.replacingOccurrences(
                        of: "CREATE VIEW \(view) AS", with: "CREATE TEMPORARY VIEW \(view)_0013 AS"))
                let columns = Self.columnsIn0013[view]
                let rows = try Self.rows(of: view, columns: columns, on: connection)
                #expect(rows.count > 10, "\(view) has too few rows to tell")
                #expect(rows == (try Self.rows(of: view + "_0013", columns: columns, on: connection)), "\(view)")
            }
        }
    }

    @Test func citusFormsOfTheViewsGiveWhatThePlainFormsGive() throws {
        let connection = try Self.shared.get().test.connection
        let plain = try ViewDefinition.builtIn(for: .postgres)
        let forms = try zip(plain, ViewDefinition.builtIn(for: .citus)).filter { $0.text != $1.text }.map(\.1)
        try #require(!forms.isEmpty)
        let rows = try forms.map { try Self.rows(of: $0.name, on: connection) }
        #expect(rows.allSatisfy { $0.count > 10 })
        try connection.rollingBack {
            for form in forms { try connection.execute(script: form.text, context: "Citus form of \(form.name)") }
            #expect(try forms.map { try Self.rows(of: $0.name, on: connection) } == rows)
        }
    }
}
