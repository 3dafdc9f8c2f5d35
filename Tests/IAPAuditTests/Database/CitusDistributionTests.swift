import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

struct CitusDistributionTests {
    /// A table a migration adds and the list forgets would stay a plain table on a coordinator, where the first
    /// statement joining it to a distributed table fails.
    @Test func placesEveryTableOfTheSchemaOnce() throws {
        let test = try TestWorkspace()
        let tables = try test.connection.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
        let schema = Set((0..<tables.rowCount).compactMap { tables.string($0, 0) })
        let placed = CitusDistribution.placements.map(\.table)
        #expect(Set(placed) == schema)
        #expect(placed.count == Set(placed).count)
    }

    /// Citus places a table with a colocation only after the table it names.
    @Test func colocatesOnlyWithATablePlacedBefore() {
        let placed = CitusDistribution.placements
        for (index, entry) in placed.enumerated() {
            guard case .distributed(_, let colocatedWith?) = entry.placement else { continue }
            #expect(placed[..<index].contains { $0.table == colocatedWith }, "\(entry.table) → \(colocatedWith)")
        }
    }

    @Test func findsNoCitusOnPlainPostgreSQL() throws {
        let test = try TestWorkspace()
        #expect(try !CitusDistribution.isPresent(on: test.connection))
    }

    /// Needs a Citus coordinator's database (docs/scale.md, "Setting one up"): the tests otherwise run on plain
    /// PostgreSQL only.
    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["IAP_AUDIT_CITUS_URL"] != nil,
            "set IAP_AUDIT_CITUS_URL to a Citus coordinator's database to run it"))
    func placesEveryTableOnACitusCoordinator() throws {
        let url = try #require(ProcessInfo.processInfo.environment["IAP_AUDIT_CITUS_URL"])
        let connection = try DatabaseLocation.url(url).connect(
            environment: ProcessInfo.processInfo.environment, logger: TestPostgres.logger)
        for (table, placement) in CitusDistribution.placements {
            let found = try connection.query(
                "SELECT partmethod, repmodel, column_to_column_name(logicalrelid, partkey) FROM pg_dist_partition "
                    + "WHERE logicalrelid = $1::regclass", [table])
            try #require(found.rowCount == 1, "\(table) is not placed")
            switch placement {
            case .reference: #expect(found.string(0, 1) == "t", "\(table)")
            case .coordinator: #expect(found.string(0, 0) == "n" && found.string(0, 1) == "s", "\(table)")
            case .distributed(let column, _):
                #expect(found.string(0, 0) == "h" && found.string(0, 2) == column, "\(table)")
            }
        }
        for view in try ViewDefinition.builtIn(for: .citus) {
            let recorded = try connection.query("SELECT checksum FROM schema_view WHERE name = $1", [view.name])
            #expect(recorded.string(0, 0) == view.checksum, "\(view.name) is not in its Citus form")
        }
    }

    /// A view's Citus form (`sql/views/<name>.citus.sql`) replaces the view of its name, and only where the plain
    /// form differs.
    @Test func citusFormsReplaceTheirOwnView() throws {
        let plain = try ViewDefinition.builtIn(for: .postgres)
        let citus = try ViewDefinition.builtIn(for: .citus)
        #expect(plain.map(\.name) == citus.map(\.name))
        let forms = zip(plain, citus).filter { $0.text != $1.text }
        #expect(forms.map(\.1.name) == ["store_account_members"])
        for (_, form) in forms {
            #expect(form.text.contains("CREATE OR REPLACE VIEW \(form.name) AS"))
        }
    }
}
