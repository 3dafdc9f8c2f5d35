import Foundation
import IAPAudit
import Postgres
import SyntheticData
import Testing

/// Incremental detection writes exactly the flags a run over every subject writes: generated data with every planted
/// pattern, dealt out record by record into increments (so later increments merge store-account clusters and add to
/// the evidence of earlier flags), detected incrementally in one database and in full in another.
@Suite(.serialized) struct IncrementalDetectionTests {
    static let increments = 4

    /// The generated records, dealt round-robin into `increments` files.
    static func incrementFiles(in test: TestWorkspace) throws -> (catalog: String, files: [String], testers: [String]) {
        let directory = test.directory.path + "/data"
        _ = try ReceiptDataGenerator(scenario: .small).write(to: directory, compress: false)
        let manifest = try FraudPatternWriter().write(to: directory)
        let receipts = directory + "/receipts"
        let paths = try FileManager.default.subpathsOfDirectory(atPath: receipts).sorted()
        var lines: [Substring] = []
        for path in paths where path.hasSuffix(".jsonl") {
            let text = try String(contentsOfFile: receipts + "/" + path, encoding: .utf8)
            lines += text.split(separator: "\n", omittingEmptySubsequences: true)
        }
        var files: [String] = []
        for increment in 0..<increments {
            let mine = lines.indices.filter { $0 % increments == increment }.map { lines[$0] }
            files.append(try test.write("increment-\(increment).jsonl", mine.joined(separator: "\n") + "\n"))
        }
        return (directory + "/catalog.json", files, manifest.testerAccountKeys)
    }

    /// A workspace with the catalog and the first increment ingested, not yet detected; the increments' files.
    static func firstIncrementIngested() throws -> (TestWorkspace, [String]) {
        let test = try TestWorkspace()
        let (catalog, files, _) = try incrementFiles(in: test)
        _ = try test.workspace.importCatalog(path: catalog, bundleID: nil)
        _ = try test.workspace.ingestReceipts(paths: [files[0]])
        return (test, files)
    }

    /// Everything detect writes, without clock times, in a canonical order.
    static func detected(_ test: TestWorkspace) throws -> [[String?]] {
        var rows: [[String?]] = []
        for query in [
            "SELECT rule, rule_version, severity, subject_kind, subject_key, window_start, window_end, score, "
                + "evidence::text, status, first_run_id, last_run_id FROM flag ORDER BY rule, subject_kind, subject_key",
            "SELECT * FROM receipt_summary ORDER BY id",
            "SELECT * FROM account_purchase ORDER BY account_key, purchase_id",
            "SELECT key, is_confirmed, original_transactions, updated_run_id FROM store_account ORDER BY key",
        ] {
            rows.append(["-- " + query])
            rows += try test.connection.query(query).rows
        }
        return rows
    }

    /// Ingests `files` one at a time into two databases, detecting incrementally in one and in full in the other,
    /// and expects the same flags and tables after each; returns the incremental runs' summaries.
    static func compare(
        files: [String], catalog: String? = nil, settings: DetectionSettings = DetectionSettings()
    ) throws -> [DetectionSummary] {
        let incremental = try TestWorkspace()
        let full = try TestWorkspace()
        if let catalog {
            for test in [incremental, full] { _ = try test.workspace.importCatalog(path: catalog, bundleID: nil) }
        }
        var summaries: [DetectionSummary] = []
        for (index, file) in files.enumerated() {
            _ = try incremental.workspace.ingestReceipts(paths: [file])
            let fast = try incremental.workspace.detect(settings: settings)
            _ = try full.workspace.ingestReceipts(paths: [file])
            let slow = try full.workspace.detect(settings: settings, full: true)

            #expect(fast.isFull == (index == 0), "increment \(index): \(fast.fullReason ?? "incremental")")
            #expect(slow.fullReason == "asked for")
            #expect(fast.created == slow.created && fast.updated == slow.updated, "increment \(index)")
            #expect(try Self.detected(incremental) == Self.detected(full), "increment \(index)")
            #expect(try incremental.count("SELECT count(*) FROM detect_pending") == 0)
            summaries.append(fast)
        }
        return summaries
    }

    @Test func incrementalRunsWriteTheFlagsOfFullRunsAfterEveryIncrement() throws {
        let data = try TestWorkspace()
        let (catalog, files, testers) = try Self.incrementFiles(in: data)
        var settings = DetectionSettings()
        settings.testerAccountKeys = testers
        let later = try Self.compare(files: files, catalog: catalog, settings: settings).dropFirst()
        // The increments did what the comparison is about: clusters merged, flags grew and new ones appeared late.
        #expect(later.allSatisfy { $0.subjectsQueued > 0 })
        #expect(later.reduce(0) { $0 + $1.storeAccounts.renamed } > 0)
        #expect(later.reduce(0) { $0 + $1.updated } > 0)
        #expect(later.reduce(0) { $0 + $1.created } > 0)
        #expect(Set(later.flatMap { $0.rules.filter { $0.created + $0.updated > 0 }.map(\.rule) }).count >= 5)
    }

    /// A receipt read later can change what an earlier one means: an app id that equals a transaction id the
    /// earlier receipt listed makes that receipt forged. The earlier receipt is re-evaluated.
    @Test func aLaterReceiptsAppIdReevaluatesTheReceiptThatListedIt() throws {
        let data = try TestWorkspace()
        let first = try data.write(
            "first.jsonl",
            #"{"application_username": "ann@example.com", "response": {"status": 0, "environment": "Production", "#
                + #""receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "product_id": "coins", "#
                + #""transaction_id": "555000111", "original_transaction_id": "555000111", "#
                + #""purchase_date": "2014-03-02 10:00:00 Etc/GMT"}]}}}"# + "\n")
        let second = try data.write(
            "second.jsonl",
            #"{"application_username": "bob@example.com", "response": {"status": 0, "environment": "Production", "#
                + #""receipt": {"bundle_id": "com.example.other", "app_item_id": "555000111", "in_app": []}}}"# + "\n")
        let summaries = try Self.compare(files: [first, second])
        #expect(summaries[1].rules.first { $0.rule == "forged-fields" }?.created == 1)
    }

    /// A later copy can give a transaction a fact the earlier receipts that listed it lacked: an expiry decades ahead
    /// makes every receipt listing the transaction forged, the earlier one included.
    @Test func aLaterCopysExpiryReevaluatesTheReceiptsThatListedTheTransaction() throws {
        let data = try TestWorkspace()
        func receipt(_ user: String, expiry: String) -> String {
            #"{"application_username": "\#(user)", "response": {"status": 0, "environment": "Production", "#
                + #""receipt": {"bundle_id": "com.example.game", "in_app": [{"quantity": "1", "product_id": "pro", "#
                + #""transaction_id": "777000111", "original_transaction_id": "777000111", "#
                + #""purchase_date": "2014-03-02 10:00:00 Etc/GMT"\#(expiry)}]}}}"# + "\n"
        }
        let first = try data.write("first.jsonl", receipt("ann@example.com", expiry: ""))
        let second = try data.write(
            "second.jsonl", receipt("ann@example.com", expiry: #", "expires_date": "2080-03-02 10:00:00 Etc/GMT""#))
        let summaries = try Self.compare(files: [first, second])
        #expect(summaries[1].rules.first { $0.rule == "forged-fields" }?.created == 2)
    }

    /// A later copy can take a purchase away from an account: an upgraded period is no purchase, so its row goes. The
    /// account that had it is evaluated again though the new receipt is another's: its velocity evidence shrinks.
    @Test func aPurchaseALaterCopyMarksUpgradedReevaluatesTheAccountThatHadIt() throws {
        let data = try TestWorkspace()
        func entry(_ id: Int, minute: Int, upgraded: Bool = false) -> String {
            #"{"quantity": "1", "product_id": "coins", "transaction_id": "\#(id)", "original_transaction_id": "\#(id)", "#
                + #""purchase_date": "2014-03-02 10:\#(minute):00 Etc/GMT""#
                + (upgraded ? #", "is_upgraded": "true"}"# : "}")
        }
        func receipt(_ user: String, _ entries: [String]) -> String {
            #"{"application_username": "\#(user)", "response": {"status": 0, "environment": "Production", "#
                + #""receipt": {"bundle_id": "com.example.game", "in_app": ["# + entries.joined(separator: ", ")
                + "]}}}\n"
        }
        let first = try data.write(
            "first.jsonl", receipt("ann@example.com", (0..<4).map { entry(881_000 + $0, minute: 10 + $0) }))
        let second = try data.write(
            "second.jsonl", receipt("bob@example.com", [entry(881_003, minute: 13, upgraded: true)]))
        let summaries = try Self.compare(files: [first, second])
        #expect(summaries[0].rules.first { $0.rule == "purchase-velocity" }?.created == 1)
        #expect(summaries[1].rules.first { $0.rule == "purchase-velocity" }?.updated == 1)
    }

    /// A cluster can grow without any of an account's purchases in the new receipts: another account's receipt lists
    /// a later transaction of Ann's third store account beside a purchase of its own, so that store account (one
    /// original transaction until then) is confirmed, and Ann now pays from three confirmed store accounts.
    @Test func aClusterThatGrowsReevaluatesTheAccountsThatPaidFromIt() throws {
        let data = try TestWorkspace()
        let catalog = try data.write("catalog.json", StoreAccountClusteringTests.catalog)
        func entry(_ id: Int, original: Int? = nil, minute: Int) -> String {
            #"{"quantity": "1", "product_id": "com.example.app.coins", "transaction_id": "\#(id)", "#
                + #""original_transaction_id": "\#(original ?? id)", "#
                + #""purchase_date": "2014-03-02 10:\#(minute):00 Etc/GMT"}"#
        }
        // An app receipt: the transactions it lists were bought from one App Store account.
        func receipt(_ user: String, _ entries: [String]) -> String {
            #"{"application_username": "\#(user)", "response": {"status": 0, "environment": "Production", "#
                + #""receipt": {"receipt_type": "Production", "bundle_id": "com.example.app", "in_app": ["#
                + entries.joined(separator: ", ") + "]}}}\n"
        }
        // Three App Store accounts: two confirmed by two original transactions each, one with a single one.
        let first = try data.write(
            "first.jsonl",
            receipt("ann@example.com", [entry(882_001, minute: 10), entry(882_002, minute: 11)])
                + receipt("ann@example.com", [entry(882_003, minute: 12), entry(882_004, minute: 13)])
                + receipt("ann@example.com", [entry(882_005, minute: 14)]))
        let second = try data.write(
            "second.jsonl",
            receipt("bob@example.com", [entry(882_100, original: 882_005, minute: 40), entry(882_200, minute: 41)]))
        let summaries = try Self.compare(files: [first, second], catalog: catalog)
        #expect(summaries[0].rules.first { $0.rule == "many-store-accounts" }?.created == 0)
        #expect(summaries[1].rules.first { $0.rule == "many-store-accounts" }?.created == 1)
    }

    @Test func aChangedSettingMakesTheNextRunFullAndSaysWhy() throws {
        let (test, files) = try Self.firstIncrementIngested()
        // The first run builds the store accounts from nothing, hence full.
        #expect(try test.workspace.detect().fullReason == "the store accounts were rebuilt")
        #expect(try test.workspace.detect().isFull == false)

        var settings = DetectionSettings()
        settings["purchase_velocity", "short_window_purchases"] = .integer(4)
        #expect(try test.workspace.detect(settings: settings).fullReason?.contains("settings") == true)
        #expect(try test.workspace.detect(settings: settings).isFull == false)

        // Some rules answer for the queued subjects only for themselves: the next run of all rules is full.
        _ = try test.workspace.ingestReceipts(paths: [files[1]])
        let some = try test.workspace.detect(rules: [.purchaseVelocity], settings: settings)
        #expect(some.fullReason == "only some rules run")
        #expect(try test.count("SELECT count(*) FROM detect_pending") > 0)
        #expect(try test.workspace.detect(settings: settings).fullReason == "the last detect ran only some rules")
    }

    /// A full run stopped before its rules finish leaves the next run full: it had queued nothing for them.
    @Test func aFullRunStoppedBeforeItsRulesLeavesTheNextRunFull() throws {
        let (test, _) = try Self.firstIncrementIngested()
        _ = try test.workspace.detect()
        let stop = StopRequest()
        stop.request(signal: SIGTERM)
        #expect(throws: (any Error).self) { try test.workspace.detect(full: true, stop: stop) }
        #expect(try test.workspace.detect().fullReason == "no complete detect run recorded")
    }

    @Test func aRunWithNothingNewEvaluatesNothingAndChangesNothing() throws {
        let (test, _) = try Self.firstIncrementIngested()
        _ = try test.workspace.detect()
        let before = try Self.detected(test)
        let again = try test.workspace.detect()
        #expect(!again.isFull)
        #expect(again.subjectsQueued == 0)
        #expect(
            again.rules.filter { $0.rule != "forged-signature" && $0.rule != "transaction-conflict" }
                .allSatisfy { $0.hits == 0 })
        #expect(again.created == 0 && again.updated == 0)
        #expect(try Self.detected(test) == before)
    }
}
