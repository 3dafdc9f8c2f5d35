import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// End to end over generated data: receipts and the sales reports derived from them, with planted discrepancies.
/// Every planted discrepancy gets its status, every other line is matched, and weekly reports double nothing.
struct GeneratedReconciliationTests {
    @Test func everyPlantedDiscrepancyGetsItsStatusAndEverythingElseMatches() throws {
        let test = try TestWorkspace()
        let world = try GeneratedWorld(in: test, seed: 1)
        let (directory, receipts, sales) = (world.directory, world.receipts, world.sales)
        #expect(
            Set(sales.plants.map(\.expectedStatus)) == [
                "variance", "missing-in-report", "missing-in-receipts", "timing", "unknown-product", "parent-mismatch",
            ])
        #expect(!sales.weeklyFiles.isEmpty)

        _ = try test.workspace.importCatalog(path: directory + "/" + receipts.catalogPath, bundleID: nil)
        _ = try test.workspace.ingestReceipts(paths: [directory + "/receipts"])
        let ingested = try test.workspace.ingestSales(paths: [directory + "/reports"])
        #expect(ingested.ingest.quarantined == 0)
        #expect(ingested.ingest.filesIngested == sales.dailyFiles.count + sales.weeklyFiles.count)

        let summary = try test.workspace.reconcile(ReconcileOptions())
        // Daily reports cover every day of the weekly ones: the weekly reports are not used.
        #expect(summary.periodsByFrequency.keys.sorted() == ["daily"])

        let lines = try test.connection.query(
            "SELECT period_begin::text, vendor_identifier, app_bundle_id, status, recorded_units, reported_units "
                + "FROM reconciliation_line ORDER BY 1, 2"
        ).rows
        var planted: [String: String] = [:]
        for plant in sales.plants {
            planted["\(plant.day) \(plant.vendorIdentifier) \(plant.app)"] = plant.expectedStatus
        }
        var seen: Set<String> = []
        for line in lines {
            let key = "\(line[0] ?? "") \(line[1] ?? "") \(line[2] ?? "")"
            let expected = planted[key] ?? "matched"
            #expect(line[3] == expected, "\(key): recorded \(line[4] ?? "") reported \(line[5] ?? "")")
            seen.insert(key)
        }
        #expect(Set(planted.keys).isSubset(of: seen))
        // Restores are IA3 rows in the reports and not sales on our side; upgrades are not refunds. Both would
        // show as differences above if either side counted them.
        #expect(try test.count("SELECT count(*) FROM sales_report_row WHERE product_type_identifier = 'IA3'") > 0)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE is_upgraded AND cancellation_date IS NOT NULL") > 0)
        #expect(try test.count("SELECT count(*) FROM purchase WHERE in_app_ownership_type = 'FAMILY_SHARED'") > 0)
        #expect(lines.count > 50)
    }

    /// Reconcile may follow a first ingest before autovacuum has analysed its tables; planned without statistics, a
    /// reconcile of every day at 1M entries ran for minutes. It takes them itself. Autovacuum is off for the tables
    /// here, so only reconcile can have taken them.
    @Test func reconcileTakesTheStatisticsAFirstIngestLeftStale() throws {
        let test = try TestWorkspace()
        let tables = ["purchase", "receipt_purchase", "sales_report_row"]
        for table in tables {
            try test.connection.execute(script: "ALTER TABLE \(table) SET (autovacuum_enabled = false)")
        }
        let directory = test.directory.appendingPathComponent("data").path
        let receipts = try ReceiptDataGenerator(scenario: .small).write(to: directory, compress: true)
        _ = try SalesReportGenerator(seed: 3).write(to: directory, receipts: receipts)
        _ = try test.workspace.importCatalog(path: directory + "/" + receipts.catalogPath, bundleID: nil)
        _ = try test.workspace.ingestReceipts(paths: [directory + "/receipts"])
        _ = try test.workspace.ingestSales(paths: [directory + "/reports"])
        let statistics = """
            SELECT relname, last_analyze IS NOT NULL, n_mod_since_analyze > 0.1 * greatest(n_live_tup, 1000)
            FROM pg_stat_user_tables WHERE relname = ANY ($1::text[]) ORDER BY relname
            """
        // A session reports its counts of changed rows at most once a second; the ingest's last ones may still be
        // its own. Reported now, before they are read on the same connection (reconcile reports them itself).
        _ = try test.connection.query("SELECT pg_stat_force_next_flush()")
        let before = try test.connection.query(statistics, [tables]).rows
        #expect(before == tables.sorted().map { [$0, "f", "t"] })
        _ = try test.workspace.reconcile(ReconcileOptions())
        #expect(try test.connection.query(statistics, [tables]).rows == tables.sorted().map { [$0, "t", "f"] })
    }
}
