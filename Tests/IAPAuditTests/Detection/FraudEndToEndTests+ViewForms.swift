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

    /// The columns each view had in migration 0013, where a later migration added some (0025: account_history's
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
        let plain = try CitusDistribution.viewsWithCitusForm.map { try Self.rows(of: $0, on: connection) }
        #expect(plain.allSatisfy { $0.count > 10 })
        try connection.rollingBack {
            try connection.runQueryFile(.citusViews, context: "Citus forms")
            let citus = try CitusDistribution.viewsWithCitusForm.map { try Self.rows(of: $0, on: connection) }
            #expect(citus == plain)
        }
    }
}
