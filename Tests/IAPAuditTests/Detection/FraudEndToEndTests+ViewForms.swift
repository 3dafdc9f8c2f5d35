import Foundation
import Postgres
import Testing

@testable import IAPAudit

/// The analysts' views in the forms Citus can run (docs/scale.md) give the rows their earlier forms gave, on the
/// planted data set.
extension FraudEndToEndTests {
    /// A view's rows as text, sorted.
    static func rows(of view: String, on connection: Connection) throws -> [String] {
        try connection.query("SELECT v::text FROM \(view) v ORDER BY 1").rows.map { $0[0] ?? "" }
    }

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
                let rows = try Self.rows(of: view, on: connection)
                #expect(rows.count > 10, "\(view) has too few rows to tell")
                #expect(rows == (try Self.rows(of: view + "_0013", on: connection)), "\(view)")
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
