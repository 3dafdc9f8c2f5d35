import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// Views are defined once, in `sql/views/`, and re-created by the migrator when their text changes.
struct MigratorViewTests {
    @Test func recordsEachViewOnceAndLeavesUnchangedViewsAlone() throws {
        let test = try TestWorkspace()
        let views = try ViewDefinition.builtIn(for: .postgres)
        let recorded = try test.connection.query("SELECT name, checksum FROM schema_view ORDER BY name")
        #expect(recorded.rows.map { $0[0] ?? "" } == views.map(\.name).sorted())
        for view in views {
            let checksum = try test.connection.query("SELECT checksum FROM schema_view WHERE name = $1", [view.name])
            #expect(checksum.string(0, 0) == view.checksum, "\(view.name)")
        }
        #expect(try Migrator(logger: TestPostgres.logger).applyViews(test.connection).isEmpty)
    }

    @Test func reCreatesAViewWhoseTextChangedAndKeepsItsReaders() throws {
        let test = try TestWorkspace()
        let changed = try ViewDefinition.builtIn(for: .postgres).map { view in
            guard view.name == "flags_open" else { return view }
            return ViewDefinition(
                name: view.name,
                text: view.text.replacingOccurrences(of: "f.last_run_id\n", with: "f.last_run_id, f.status\n"))
        }
        let migrator = Migrator(views: changed, logger: TestPostgres.logger)
        #expect(try migrator.applyViews(test.connection) == ["flags_open"])
        #expect(try migrator.applyViews(test.connection).isEmpty)
        try test.connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { _ = try? test.connection.execute(script: "RESET ROLE") }
        #expect(try test.connection.query("SELECT status FROM flags_open").rowCount == 0)
    }

    /// To change a table under a view, a numbered migration drops the view; the view files bring it back, and the
    /// views that read it, with their grants.
    @Test func bringsBackAViewANumberedMigrationDroppedWithItsReaders() throws {
        let test = try TestWorkspace()
        let dropping = Migrator.Migration(
            version: 9001, name: "9001_drop.sql", text: "DROP VIEW transaction_notification CASCADE;")
        let applied = try Migrator(migrations: Migrator.builtIn + [dropping], logger: TestPostgres.logger)
            .migrate(test.connection)
        #expect(applied == [9001])
        let missing = try test.connection.query(
            "SELECT count(*) FROM unnest($1::text[]) AS v WHERE to_regclass(v) IS NULL",
            [["transaction_notification", "refund_notification", "purchase_state_change"]])
        #expect(missing.int(0, 0) == 0)
        try test.connection.execute(script: "SET ROLE iap_audit_analyst")
        defer { _ = try? test.connection.execute(script: "RESET ROLE") }
        for view in ["transaction_notification", "refund_notification", "purchase_state_change"] {
            _ = try test.connection.query("SELECT * FROM \(view) LIMIT 1")
        }
    }

    @Test func aViewComesAfterTheViewsItReads() throws {
        let names = try ViewDefinition.builtIn(for: .postgres).map(\.name)
        let reader = try #require(names.firstIndex(of: "refund_notification"))
        let read = try #require(names.firstIndex(of: "transaction_notification"))
        #expect(read < reader)
        let a = ViewDefinition(name: "a", text: "CREATE OR REPLACE VIEW a AS SELECT * FROM b;")
        let b = ViewDefinition(name: "b", text: "-- not read: a\nCREATE OR REPLACE VIEW b AS SELECT 1;")
        #expect(try ViewDefinition.inDependencyOrder([a, b]).map(\.name) == ["b", "a"])
        let cycle = ViewDefinition(name: "b", text: "CREATE OR REPLACE VIEW b AS SELECT * FROM a;")
        #expect(throws: IAPAuditError.self) { try ViewDefinition.inDependencyOrder([a, cycle]) }
    }

    /// A view file creates the view it is named after, and says who reads it.
    @Test func eachViewFileCreatesItsOwnView() throws {
        for view in try ViewDefinition.builtIn(for: .postgres) + ViewDefinition.builtIn(for: .citus) {
            #expect(view.text.contains("CREATE OR REPLACE VIEW \(view.name) AS\n"), "\(view.name)")
            #expect(view.text.components(separatedBy: "CREATE OR REPLACE VIEW").count == 2, "\(view.name)")
        }
        let readers = try ViewDefinition.builtIn(for: .postgres).filter { !$0.readers.isEmpty }.map(\.name)
        #expect(!readers.contains("sales_report_row_columns"))
        #expect(readers.contains("flags_open") && readers.contains("purchase_state_change"))
    }

    /// Numbered migrations from the one that introduced `sql/views/` on (and those written beside it) create no
    /// view: a view declared there would be put back to its file's text by the next command.
    @Test func noLaterNumberedMigrationCreatesAView() throws {
        for migration in Migrator.builtIn where migration.version > 23 {
            let code = migration.text.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
            #expect(!code.uppercased().contains("CREATE VIEW"), "\(migration.name)")
            #expect(!code.uppercased().contains("CREATE OR REPLACE VIEW"), "\(migration.name)")
        }
    }
}
