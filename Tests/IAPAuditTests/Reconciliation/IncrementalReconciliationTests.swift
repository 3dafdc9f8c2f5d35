import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// The run's reconcile covers only the days that changed since the last one. Over generated data loaded in
/// increments (receipts a few days at a time, reports arriving after the receipts, a late refund of an old purchase),
/// the lines it leaves are exactly those a reconcile of every day writes over the same data.
struct IncrementalReconciliationTests {
    /// Every column of every line but its id and run: what a from-scratch reconcile must agree with.
    static let lineColumns = """
        SELECT source, frequency, period_begin::text, period_end::text, vendor_identifier, app_bundle_id,
            parent_identifier, recorded_units::text, recorded_trials::text, reported_units::text, difference::text,
            status, customer_price::text, proceeds::text, recorded_customer_amount::text, time_zone
        FROM reconciliation_line
        ORDER BY source, period_begin, period_end, vendor_identifier, app_bundle_id
        """

    /// Two databases fed the same files: one reconciled incrementally, one from scratch each time.
    struct Pair {
        let incremental: TestWorkspace
        let full: TestWorkspace

        func ingest(receipts: [String] = [], sales: [String] = []) throws {
            for test in [incremental, full] {
                if !receipts.isEmpty { _ = try test.workspace.ingestReceipts(paths: receipts) }
                if !sales.isEmpty { _ = try test.workspace.ingestSales(paths: sales) }
            }
        }

        /// Reconciles both ways; expects equal lines and returns the incremental summary.
        @discardableResult
        func reconcile(_ step: String) throws -> ReconcileSummary {
            let summary = try incremental.workspace.reconcile(ReconcileOptions(isIncremental: true))
            _ = try full.workspace.reconcile(ReconcileOptions())
            let incrementalLines = try incremental.connection.query(IncrementalReconciliationTests.lineColumns).rows
            let fullLines = try full.connection.query(IncrementalReconciliationTests.lineColumns).rows
            #expect(incrementalLines.count == fullLines.count, "\(step): line count")
            for (index, (mine, theirs)) in zip(incrementalLines, fullLines).enumerated() where mine != theirs {
                Issue.record("\(step): line \(index) differs: incremental \(mine), full \(theirs)")
                break
            }
            return summary
        }
    }

    @Test func incrementalReconcileEqualsFullOverIncrements() throws {
        let pair = Pair(incremental: try TestWorkspace(), full: try TestWorkspace())
        let world = try GeneratedWorld(in: pair.incremental, seed: 1)
        let (directory, receipts, sales) = (world.directory, world.receipts, world.sales)
        let receiptFiles = receipts.files.map { directory + "/" + $0.path }.sorted()
        let dailyFiles = sales.dailyFiles.map { directory + "/" + $0 }.sorted()
        let weeklyFiles = sales.weeklyFiles.map { directory + "/" + $0 }.sorted()
        try #require(receiptFiles.count >= 4 && dailyFiles.count >= 6 && !weeklyFiles.isEmpty)
        for test in [pair.incremental, pair.full] {
            _ = try test.workspace.importCatalog(path: directory + "/" + receipts.catalogPath, bundleID: nil)
        }

        // Receipts of the first days, and reports of the first two days: a first reconcile covers all days.
        let quarter = receiptFiles.count / 4
        try pair.ingest(receipts: Array(receiptFiles[..<quarter]), sales: Array(dailyFiles[..<2]))
        let first = try pair.reconcile("first")
        #expect(first.scope == .all)
        #expect(first.allDaysReason == "no earlier reconcile recorded")

        // More receipts, no reports: only days the new receipts fall on that some report covers.
        try pair.ingest(receipts: Array(receiptFiles[quarter..<(2 * quarter)]))
        let second = try pair.reconcile("receipts only")
        #expect(second.scope == .changedDays)

        // The reports of the days already received arrive late, with the weekly reports.
        try pair.ingest(receipts: Array(receiptFiles[(2 * quarter)..<(3 * quarter)]), sales: Array(dailyFiles[2..<5]))
        try pair.reconcile("late daily reports")
        try pair.ingest(sales: weeklyFiles)
        try pair.reconcile("weekly reports")

        // The rest of the receipts and reports.
        try pair.ingest(receipts: Array(receiptFiles[(3 * quarter)...]), sales: Array(dailyFiles[5...]))
        try pair.reconcile("the rest")

        // Nothing new: nothing re-reconciled, nothing rewritten.
        let before = try lineIdentities(pair.incremental)
        let idle = try pair.reconcile("nothing new")
        #expect(idle.scope == .changedDays && idle.daysReconciled == 0 && idle.lines == 0)
        #expect(try lineIdentities(pair.incremental) == before)

        // A late refund of an early consumable purchase: a new receipt file whose copy of the transaction carries a
        // cancellation the next day. Only the periods around that day are rewritten.
        let early = try pair.incremental.connection.query(
            """
            SELECT p.transaction_id, p.product_id, p.quantity, p.bundle_id,
                to_char(p.purchase_date AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                to_char((p.purchase_date + interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
                ((p.purchase_date + interval '1 day') AT TIME ZONE 'America/Los_Angeles')::date::text
            FROM purchase p
            JOIN product pr ON pr.bundle_id = p.bundle_id AND pr.product_id = p.product_id
            WHERE pr.type = 'consumable' AND p.environment = 'Production' AND p.cancellation_date IS NULL
                AND p.in_app_ownership_type IS DISTINCT FROM 'FAMILY_SHARED' AND (p.original_transaction_id IS NULL OR p.original_transaction_id = p.transaction_id)
            ORDER BY p.purchase_date, p.transaction_id
            LIMIT 1
            """)
        let transaction = try early.requireString(0, 0)
        let refundDay = try early.requireString(0, 6)
        let refund = """
            {"response": {"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", \
            "bundle_id": "\(try early.requireString(0, 3))", "in_app": [{"quantity": "\(try early.requireInt(0, 2))", \
            "product_id": "\(try early.requireString(0, 1))", "transaction_id": "\(transaction)", \
            "original_transaction_id": "\(transaction)", "purchase_date": "\(try early.requireString(0, 4)) Etc/GMT", \
            "cancellation_date": "\(try early.requireString(0, 5)) Etc/GMT", "cancellation_reason": "0"}]}}}

            """
        let refundFile = try pair.incremental.write("late/refund.jsonl", refund)
        try pair.ingest(receipts: [refundFile])
        for test in [pair.incremental, pair.full] {
            #expect(
                try test.count(
                    "SELECT count(*) FROM purchase WHERE cancellation_date IS NOT NULL AND transaction_id = '"
                        + transaction + "'") == 1)
        }
        let beforeRefund = try lineIdentities(pair.incremental)
        let late = try pair.reconcile("late refund")
        #expect(late.scope == .changedDays)
        let from = try #require(late.from)
        let to = try #require(late.to)
        #expect(from <= refundDay && refundDay <= to)
        // The refund's day, grown to the weekly report period around it: a week at most.
        #expect(late.daysReconciled >= 1 && late.daysReconciled <= 7)
        let afterRefund = try lineIdentities(pair.incremental)
        // Lines of periods away from the window (not even next to it) are the same rows of the same run.
        let untouched = beforeRefund.filter { $0.key.end < dayBefore(from) || $0.key.begin > dayAfter(to) }
        #expect(!untouched.isEmpty)
        for (period, identity) in untouched {
            #expect(afterRefund[period] == identity, "\(period) was rewritten")
        }
    }

    /// Which period speaks for a day depends on periods that do not touch it: a weekly report crossing into April is
    /// reconciled only when no coarser incomplete report overlaps it, and whether April's monthly report is complete
    /// depends on April's daily reports. A late purchase on 03-31 must leave the lines a full reconcile writes, with
    /// April's dailies present (but 04-03's: the week is incomplete, April is not) and with none (April incomplete).
    @Test(arguments: [true, false])
    func aLatePurchaseNextToNestedReportPeriodsLeavesTheLinesAFullReconcileWrites(aprilDailies: Bool) throws {
        let pair = Pair(incremental: try TestWorkspace(), full: try TestWorkspace())
        let catalog = try pair.incremental.write("catalog.json", ReconciliationFixture.catalog)
        for test in [pair.incremental, pair.full] {
            _ = try test.workspace.importCatalog(path: catalog, bundleID: nil)
        }
        func report(_ name: String, begin: String, end: String, units: Int) throws -> String {
            let row = SalesTestData.row20(sku: "coins", units: units, begin: begin, end: end, parent: "GAME1")
            return try pair.incremental.write(name, [SalesTestData.header20, row].joined(separator: "\n") + "\n")
        }
        var reports = [
            try report("S_D_80000001_20140330.txt", begin: "03/30/2014", end: "03/30/2014", units: 1),
            try report("S_D_80000001_20140331.txt", begin: "03/31/2014", end: "03/31/2014", units: 2),
            try report("S_W_80000001_20140405.txt", begin: "03/30/2014", end: "04/05/2014", units: 5),
            try report("S_M_80000001_201404.txt", begin: "04/01/2014", end: "04/30/2014", units: 9),
        ]
        if aprilDailies {
            for day in 1...30 where day != 3 {
                let date = String(format: "04/%02d/2014", day)
                reports.append(
                    try report(String(format: "S_D_80000001_201404%02d.txt", day), begin: date, end: date, units: 1))
            }
        }
        let game = "com.example.game"
        let early = try pair.incremental.write(
            "receipts-1.jsonl",
            [
                ReconciliationFixture.receipt(game, [ReconciliationFixture.entry("coins", "c1", at: "03-30 18:00:00")]),
                ReconciliationFixture.receipt(game, [ReconciliationFixture.entry("coins", "c2", at: "04-02 18:00:00")]),
            ].joined(separator: "\n") + "\n")
        try pair.ingest(receipts: [early], sales: reports)
        try pair.reconcile("first")

        let late = try pair.incremental.write(
            "receipts-2.jsonl",
            ReconciliationFixture.receipt(game, [ReconciliationFixture.entry("coins", "c3", at: "03-31 18:00:00")])
                + "\n")
        try pair.ingest(receipts: [late])
        let summary = try pair.reconcile("late purchase")
        #expect(summary.scope == .changedDays && summary.daysReconciled == 1)
        #expect(try pair.incremental.count("SELECT count(*) FROM reconciliation_line") > 0)
    }

    /// A purchase first recorded on a receipt that does not count (an invalid one) counts from the day a valid receipt
    /// lists it; later receipts that repeat it (valid or not, a sandbox tester's) recount nothing.
    @Test func aPurchaseCountsFromItsFirstValidReceiptOnly() throws {
        let pair = Pair(incremental: try TestWorkspace(), full: try TestWorkspace())
        let catalog = try pair.incremental.write("catalog.json", ReconciliationFixture.catalog)
        for test in [pair.incremental, pair.full] {
            _ = try test.workspace.importCatalog(path: catalog, bundleID: nil)
        }
        let row = SalesTestData.row20(sku: "coins", units: 1, begin: "03/31/2014", parent: "GAME1")
        let report = try pair.incremental.write(
            "S_D_80000001_20140331.txt", [SalesTestData.header20, row].joined(separator: "\n") + "\n")
        let entry = ReconciliationFixture.entry("coins", "c1", at: "03-31 18:00:00")
        let game = "com.example.game"
        let receipts = [
            ("invalid", ReconciliationFixture.receipt(game, [entry], status: 21010)),
            ("valid", ReconciliationFixture.receipt(game, [entry])),
            // 21006 counts as 0 does; the same bytes again would be the same record, stored once.
            ("valid-again", ReconciliationFixture.receipt(game, [entry], status: 21006)),
            ("invalid-again", ReconciliationFixture.receipt(game, [entry], status: 21010)),
            ("sandbox", ReconciliationFixture.receipt(game, [entry], environment: "Sandbox")),
        ].map { name, receipt in (name, try? pair.incremental.write("\(name).jsonl", receipt + "\n")) }
        try pair.ingest(receipts: [try #require(receipts[0].1)], sales: [report])
        try pair.reconcile("invalid first")
        #expect(try pair.incremental.count("SELECT recorded_units FROM reconciliation_line") == 0)

        try pair.ingest(receipts: [try #require(receipts[1].1)])
        let valid = try pair.reconcile("valid")
        #expect(valid.daysReconciled == 1)
        #expect(try pair.incremental.count("SELECT recorded_units FROM reconciliation_line") == 1)

        for (step, path) in receipts.dropFirst(2) {
            try pair.ingest(receipts: [try #require(path)])
            let repeated = try pair.reconcile(step)
            #expect(repeated.daysReconciled == 0, "\(step)")
        }
    }

    @Test func aChangedTimeZoneReconcilesEveryDay() throws {
        let test = try TestWorkspace()
        let world = try GeneratedWorld(in: test, seed: 2)
        _ = try test.workspace.importCatalog(path: world.path(world.receipts.catalogPath), bundleID: nil)
        _ = try test.workspace.ingestReceipts(paths: [world.path("receipts")])
        _ = try test.workspace.ingestSales(paths: [world.path("reports")])

        let first = try test.workspace.reconcile(ReconcileOptions(isIncremental: true))
        #expect(first.scope == .all && first.daysReconciled > 0)
        let again = try test.workspace.reconcile(ReconcileOptions(isIncremental: true))
        #expect(again.scope == .changedDays && again.daysReconciled == 0)
        let utc = try test.workspace.reconcile(ReconcileOptions(timeZone: "UTC", isIncremental: true))
        #expect(utc.scope == .all)
        #expect(utc.allDaysReason == "time zone changed from America/Los_Angeles to UTC")
        #expect(utc.daysReconciled == first.daysReconciled)
        // A forced window does not count as a reconcile of the changed days: it records nothing.
        let window = try test.workspace.reconcile(
            ReconcileOptions(from: ReconcileOptions.day(try #require(first.from)), to: nil, timeZone: "UTC"))
        #expect(window.scope == .window)
    }

    struct Period: Hashable, CustomStringConvertible {
        var source: String
        var begin: String
        var end: String
        var vendor: String
        var app: String?
        var description: String { "\(source) \(begin)…\(end) \(vendor) \(app ?? "-")" }
    }

    /// Each line's id and run, by its key.
    func lineIdentities(_ test: TestWorkspace) throws -> [Period: [String?]] {
        let rows = try test.connection.query(
            "SELECT source, period_begin::text, period_end::text, vendor_identifier, app_bundle_id, id::text, "
                + "run_id::text FROM reconciliation_line"
        ).rows
        var identities: [Period: [String?]] = [:]
        for row in rows {
            let period = Period(
                source: row[0] ?? "", begin: row[1] ?? "", end: row[2] ?? "", vendor: row[3] ?? "", app: row[4])
            identities[period] = [row[5], row[6]]
        }
        return identities
    }

    func dayBefore(_ day: String) -> String { shifted(day, by: -1) }
    func dayAfter(_ day: String) -> String { shifted(day, by: 1) }

    func shifted(_ day: String, by days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let date = formatter.date(from: day) else { return day }
        return formatter.string(from: date.addingTimeInterval(Double(days) * 86_400))
    }
}
