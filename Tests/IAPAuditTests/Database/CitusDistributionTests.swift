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
        for view in CitusDistribution.viewsWithCitusForm {
            let comment = try connection.query("SELECT obj_description($1::regclass, 'pg_class')", [view])
            #expect(comment.string(0, 0)?.hasSuffix(CitusDistribution.citusFormMark) == true, "\(view)")
        }
    }

    /// The views a coordinator gives another form are those `citus_views.sql` replaces, each marked in its comment.
    @Test func citusViewFormsAreTheListedOnesAndMarked() throws {
        let text = SQLQuery.citusViews.text
        let replaced = text.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("CREATE OR REPLACE VIEW ") else { return nil }
            return line.dropFirst("CREATE OR REPLACE VIEW ".count).split(separator: " ").first.map(String.init)
        }
        #expect(replaced == CitusDistribution.viewsWithCitusForm)
        for view in replaced {
            #expect(text.contains("COMMENT ON VIEW \(view) IS"), "\(view) has no comment to carry the mark")
        }
        #expect(text.contains(CitusDistribution.citusFormMark + "'"))
    }
}
