import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

@Suite struct StoreAccountClusteringTests {
    /// The clusters as comparable rows (no run ids or clock times).
    static func clusters(_ test: TestWorkspace) throws -> [[String?]] {
        var rows = try test.connection.query(
            """
            SELECT key, is_confirmed, original_transactions, recorded_store_accounts, holds_ownable,
                   first_purchase_date, last_purchase_date
            FROM store_account ORDER BY key
            """
        ).rows
        rows += try test.connection.query(
            "SELECT original_transaction_id, store_account_key, holds_ownable FROM store_account_member ORDER BY 1"
        ).rows
        rows += try test.connection.query(
            "SELECT store_account, store_account_key FROM store_account_recorded ORDER BY 1"
        ).rows
        return rows
    }

    @Test func extendingDayByDayEqualsAFullRecomputation() throws {
        let test = try TestWorkspace()
        let directory = test.directory.path + "/data"
        _ = try ReceiptDataGenerator(scenario: .small).write(to: directory, compress: false)
        _ = try FraudPatternWriter().write(to: directory)
        _ = try test.workspace.importCatalog(path: directory + "/catalog.json", bundleID: nil)
        let days = try FileManager.default.contentsOfDirectory(atPath: directory + "/receipts").sorted()
        var renamed = 0
        for day in days {
            _ = try test.workspace.ingestReceipts(paths: [directory + "/receipts/" + day])
            let summary = try test.workspace.detect(rules: [])
            #expect(summary.storeAccounts.filesRead >= 1)
            renamed += summary.storeAccounts.renamed
        }
        let incremental = try Self.clusters(test)
        #expect(try test.count("SELECT count(*) FROM store_account") > 10)

        let rebuilt = try test.workspace.detect(rules: [], rebuildStoreAccounts: true)
        #expect(rebuilt.storeAccounts.isRebuilt)
        #expect(rebuilt.storeAccounts.filesRead == days.count)  // one file per day folder, and receipts/fraud
        #expect(try Self.clusters(test) == incremental)
        // Later days re-list earlier purchases alongside new ones, so some clusters must have been renamed.
        #expect(renamed == (try test.count("SELECT count(*) FROM store_account_merge")))
    }

    @Test func anAppReceiptListingTwoClustersMergesThemUnderTheSmallerIdAndRecordsIt() throws {
        let test = try TestWorkspace()
        try test.write("catalog.json", Self.catalog)
        _ = try test.workspace.importCatalog(path: test.directory.path + "/catalog.json", bundleID: nil)
        let first = try test.write("a.jsonl", Self.record(account: "a", entries: [("500", "com.example.app.pro")]))
        let second = try test.write("b.jsonl", Self.record(account: "a", entries: [("400", "com.example.app.coins")]))
        _ = try test.workspace.ingestReceipts(paths: [first, second])
        _ = try test.workspace.detect(rules: [])
        #expect(try test.count("SELECT count(*) FROM store_account") == 2)
        #expect(try test.count("SELECT count(*) FROM store_account WHERE key = 'sa-400' AND NOT is_confirmed") == 1)
        #expect(try test.count("SELECT count(*) FROM store_account WHERE key = 'sa-500' AND is_confirmed") == 1)

        let both = try test.write(
            "c.jsonl",
            Self.record(account: "b", entries: [("500", "com.example.app.pro"), ("400", "com.example.app.coins")]))
        _ = try test.workspace.ingestReceipts(paths: [both])
        let summary = try test.workspace.detect(rules: [])
        #expect(summary.storeAccounts.renamed == 1)
        #expect(try test.count("SELECT count(*) FROM store_account") == 1)
        #expect(try test.count("SELECT count(*) FROM store_account WHERE key = 'sa-400' AND is_confirmed") == 1)
        #expect(
            try test.count(
                "SELECT count(*) FROM store_account_merge WHERE merged_key = 'sa-500' AND into_key = 'sa-400'")
                == 1)
    }

    @Test func familySharedEntriesAndOtherAppsNeverJoinAStoreAccount() throws {
        let test = try TestWorkspace()
        try test.write("catalog.json", Self.catalog)
        _ = try test.workspace.importCatalog(path: test.directory.path + "/catalog.json", bundleID: nil)
        let path = try test.write(
            "a.jsonl",
            Self.record(
                account: "a", entries: [("700", "com.example.app.pro"), ("600", "com.example.app.pro2")],
                familyShared: "600")
                + Self.record(account: "a", entries: [("800", "com.other.app.x")], bundle: "com.other.app"))
        _ = try test.workspace.ingestReceipts(paths: [path])
        _ = try test.workspace.detect(rules: [])
        #expect(try test.count("SELECT count(*) FROM store_account_member") == 1)
        #expect(try test.count("SELECT count(*) FROM store_account WHERE key = 'sa-700'") == 1)
    }

    static let catalog = """
        {"apps": [{"bundle_id": "com.example.app", "apple_id": "100000001", "sku": "APP1", "name": "App"}],
         "products": [
           {"product_id": "com.example.app.pro", "bundle_id": "com.example.app", "type": "non-consumable"},
           {"product_id": "com.example.app.pro2", "bundle_id": "com.example.app", "type": "non-consumable"},
           {"product_id": "com.example.app.coins", "bundle_id": "com.example.app", "type": "consumable"}]}
        """

    /// One envelope line with an iOS 7 app receipt listing `entries` (transaction id, product id).
    static func record(
        account: String, entries: [(String, String)], familyShared: String? = nil, bundle: String = "com.example.app"
    ) -> String {
        let inApp = entries.map { id, product in
            let ownership = id == familyShared ? "FAMILY_SHARED" : "PURCHASED"
            return """
                {"quantity": "1", "product_id": "\(product)", "transaction_id": "\(id)", \
                "original_transaction_id": "\(id)", "purchase_date_ms": "1393700000000", \
                "in_app_ownership_type": "\(ownership)"}
                """
        }.joined(separator: ", ")
        return """
            {"recorded_at": "2014-03-02T10:00:00Z", "application_username_hash": "\(hash(account))", \
            "response": {"status": 0, "environment": "Production", "receipt": {"receipt_type": "Production", \
            "bundle_id": "\(bundle)", "in_app": [\(inApp)]}}}

            """
    }

    static func hash(_ name: String) -> String {
        let digits = String(repeating: name.first.map(String.init) ?? "0", count: 64)
            .map { $0.isHexDigit ? $0 : "0" }
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && index % 8 == 0 { text += "-" }
            text.append(digit)
        }
        return text
    }
}
