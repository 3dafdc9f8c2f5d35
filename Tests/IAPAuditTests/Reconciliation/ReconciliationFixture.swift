import Foundation
import IAPAudit

/// A small hand-built world: a catalog, recorded receipts and Apple's reports, each line chosen to hit one rule.
/// 2014-03-02 is before the DST change, so Pacific days run 08:00–08:00 UTC.
enum ReconciliationFixture {
    static let catalog = """
        {"apps": [
          {"bundle_id": "com.example.game", "apple_id": "111", "sku": "GAME1", "name": "Game"},
          {"bundle_id": "com.example.news", "apple_id": "222", "sku": "NEWS1", "name": "News"}
        ], "products": [
          {"product_id": "coins", "bundle_id": "com.example.game", "type": "consumable"},
          {"product_id": "gems", "bundle_id": "com.example.game", "type": "consumable"},
          {"product_id": "removeads", "bundle_id": "com.example.game", "type": "non-consumable"},
          {"product_id": "levels", "bundle_id": "com.example.game", "type": "non-consumable"},
          {"product_id": "pack", "bundle_id": "com.example.game", "type": "non-consumable"},
          {"product_id": "monthly", "bundle_id": "com.example.news", "type": "auto-renewable"}
        ]}
        """

    /// One in_app entry.
    static func entry(
        _ product: String, _ transaction: String, at time: String, original: String? = nil, quantity: Int = 1,
        extra: String = ""
    ) -> String {
        #"{"quantity": "\#(quantity)", "product_id": "\#(product)", "transaction_id": "\#(transaction)", "#
            + #""original_transaction_id": "\#(original ?? transaction)", "#
            + #""purchase_date": "2014-\#(time) Etc/GMT"\#(extra)}"#
    }

    /// One recorded iOS 7 receipt.
    static func receipt(
        _ bundle: String, _ entries: [String], status: Int = 0, environment: String = "Production"
    ) -> String {
        #"{"response": {"status": \#(status), "environment": "\#(environment)", "receipt": {"#
            + #""receipt_type": "\#(environment == "Sandbox" ? "ProductionSandbox" : "Production")", "#
            + #""bundle_id": "\#(bundle)", "in_app": [\#(entries.joined(separator: ", "))]}}}"#
    }

    static var receipts: String {
        let game = "com.example.game"
        let news = "com.example.news"
        return [
            receipt(game, [entry("coins", "t1", at: "03-02 10:00:00", quantity: 2)]),
            // 21:00 Pacific on 03-02, though 03-03 in UTC.
            receipt(game, [entry("coins", "t2", at: "03-03 05:00:00")]),
            receipt(game, [entry("removeads", "t3", at: "03-02 12:00:00")]),
            // A restore: a new transaction of the same original purchase. Not a sale.
            receipt(
                game,
                [
                    entry("removeads", "t3", at: "03-02 12:00:00"),
                    entry("removeads", "t4", at: "03-03 12:00:00", original: "t3"),
                ]),
            receipt(news, [entry("monthly", "t5", at: "03-02 11:00:00", extra: #", "web_order_line_item_id": "W1""#)]),
            // The same billed period restored under another transaction id: still one period.
            receipt(
                news,
                [
                    entry(
                        "monthly", "t6", at: "03-02 11:00:00", original: "t5",
                        extra: #", "web_order_line_item_id": "W1""#)
                ]),
            receipt(
                news,
                [
                    entry(
                        "monthly", "t7", at: "03-02 11:30:00",
                        extra: #", "web_order_line_item_id": "W2", "is_trial_period": "true""#)
                ]),
            // Upgraded away the next day: a sale, and the cancellation is not a refund.
            receipt(
                news,
                [
                    entry(
                        "monthly", "t8", at: "03-02 13:00:00",
                        extra: #", "web_order_line_item_id": "W3", "#
                            + #""is_upgraded": "true", "cancellation_date": "2014-03-03 20:00:00 Etc/GMT""#)
                ]),
            // Refunded on 03-03 Pacific.
            receipt(
                game,
                [
                    entry(
                        "removeads", "t9", at: "03-02 14:00:00",
                        extra: #", "cancellation_date": "2014-03-03 18:00:00 Etc/GMT""#)
                ]),
            receipt(
                game,
                [entry("coins", "t10", at: "03-02 10:30:00", extra: #", "in_app_ownership_type": "FAMILY_SHARED""#)]),
            receipt(game, [entry("coins", "t11", at: "03-02 10:30:00")], environment: "Sandbox"),
            receipt(game, [entry("coins", "t12", at: "03-02 10:30:00")], status: 21010),
            receipt(game, [entry("gems", "t13", at: "03-02 15:00:00")]),
            receipt(game, [entry("pack", "t14", at: "03-02 15:00:00")]),
            receipt(game, [entry("coins", "t15", at: "03-04 10:00:00"), entry("coins", "t16", at: "03-04 11:00:00")]),
            receipt(game, [entry("gems", "t17", at: "03-04 12:00:00")]),
        ].joined(separator: "\n") + "\n"
    }

    typealias Row = (sku: String, type: String, units: Int, price: String, parent: String)

    static func dailyReport(_ date: String, _ rows: [Row]) -> String {
        ([SalesTestData.header20]
            + rows.map {
                SalesTestData.row20(
                    sku: $0.sku, type: $0.type, units: $0.units, begin: date, price: $0.price, parent: $0.parent)
            }).joined(separator: "\n") + "\n"
    }

    /// Daily reports for 03-02 … 03-09 (the last four with app downloads only: files of identical bytes would be
    /// one file) and the weekly report of 03-03 … 03-09.
    static func writeReports(to test: TestWorkspace, weeklyOnly: Bool = false) throws -> [String] {
        let day2: [Row] = [
            ("coins", "IA1", 3, "0.99", "111"), ("removeads", "IA1", 2, "1.99", "GAME1"),
            ("monthly", "IAY", 2, "4.99", "NEWS1"), ("gems", "IA1", 3, "0.99", "GAME1"),
            ("pack", "IA1", 1, "2.99", "NEWS1"), ("com.other.thing", "IA1", 1, "0.99", "GAME1"),
            ("GAME1", "1F", 7, "0.00", " "),
        ]
        let day3: [Row] = [
            ("removeads", "IA1", -1, "-1.99", "GAME1"), ("levels", "IA1", 1, "2.99", "GAME1"),
            ("removeads", "IA3", 5, "0.00", "GAME1"),
        ]
        let day4: [Row] = [("coins", "IA1", 1, "0.99", "GAME1")]
        let day5: [Row] = [("coins", "IA1", 1, "0.99", "GAME1")]
        var paths: [String] = []
        if !weeklyOnly {
            let days: [(Int, [Row])] = [(2, day2), (3, day3), (4, day4), (5, day5), (6, []), (7, []), (8, []), (9, [])]
            for (day, rows) in days {
                let rows = rows.isEmpty ? [("GAME1", "1F", day, "0.00", " ")] : rows
                let date = "03/0\(day)/2014"
                paths.append(try test.write("S_D_80000001_2014030\(day).txt", dailyReport(date, rows)))
            }
        }
        let weekly =
            ([SalesTestData.header20]
            + (day3 + day4 + day5).map {
                SalesTestData.row20(
                    sku: $0.sku, type: $0.type, units: $0.units, begin: "03/03/2014", end: "03/09/2014",
                    price: $0.price,
                    parent: $0.parent)
            }).joined(separator: "\n") + "\n"
        paths.append(try test.write("S_W_80000001_20140309.txt", weekly))
        return paths
    }

    /// Loads the catalog, the receipts and the reports into `test`.
    static func load(into test: TestWorkspace, weeklyOnly: Bool = false) throws {
        let catalogPath = try test.write("catalog.json", catalog)
        _ = try test.workspace.importCatalog(path: catalogPath, bundleID: nil)
        let receiptsPath = try test.write("receipts.jsonl", receipts)
        let ingested = try test.workspace.ingestReceipts(paths: [receiptsPath])
        precondition(ingested.quarantined == 0, "fixture receipts must all parse")
        _ = try test.workspace.ingestSales(paths: try writeReports(to: test, weeklyOnly: weeklyOnly))
    }
}
