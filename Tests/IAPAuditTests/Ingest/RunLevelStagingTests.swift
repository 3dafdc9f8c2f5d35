import Foundation
import IAPAudit
import Testing

/// A run skips transaction copies that earlier files of the run settled (`SettledTransactions`); the stored result
/// must be exactly what ingesting each file on its own gives.
struct RunLevelStagingTests {
    struct Copy {
        var transactionID: String
        var product = "coins"
        var purchaseMilliseconds = 1_393_754_400_000
        var cancelled = false
        var upgraded = false

        var json: String {
            var fields = [
                #""transaction_id": "\#(transactionID)""#, #""original_transaction_id": "\#(transactionID)""#,
                #""product_id": "\#(product)""#, #""quantity": "1""#,
                #""purchase_date_ms": "\#(purchaseMilliseconds)""#,
            ]
            if cancelled { fields.append(#""cancellation_date_ms": "1393840800000", "cancellation_reason": "0""#) }
            if upgraded { fields.append(#""is_upgraded": "true""#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    static func record(_ copies: [Copy]) -> String {
        #"{"application_username": "carol@example.com", "response": {"status": 0, "environment": "Production", "#
            + #""receipt": {"bundle_id": "com.example.game", "in_app": ["#
            + copies.map(\.json).joined(separator: ", ") + "]}}}"
    }

    /// Four days in which one transaction conflicts again and again, one is refunded and one upgraded, and most
    /// copies repeat what earlier days settled.
    static let days: [[[Copy]]] = [
        [[Copy(transactionID: "1"), Copy(transactionID: "2")]],
        [
            [Copy(transactionID: "1", product: "gems"), Copy(transactionID: "2")],
            [Copy(transactionID: "1", product: "gems"), Copy(transactionID: "2", cancelled: true)],
        ],
        [
            [
                Copy(transactionID: "1", product: "gems"), Copy(transactionID: "2", cancelled: true),
                Copy(transactionID: "3", purchaseMilliseconds: 1_393_754_401_000),
            ]
        ],
        [
            [
                Copy(transactionID: "1"), Copy(transactionID: "2"),
                Copy(transactionID: "3", purchaseMilliseconds: 1_393_754_401_000),
            ],
            [Copy(transactionID: "3", purchaseMilliseconds: 1_393_754_401_500, upgraded: true)],
            [Copy(transactionID: "1", purchaseMilliseconds: 1_393_754_405_000)],
        ],
    ]

    /// Writes the days into the test's directory and returns it.
    func writeDays(into test: TestWorkspace) throws -> String {
        for (index, records) in Self.days.enumerated() {
            try test.write("days/2014-03-0\(index + 1).jsonl", records.map(Self.record).joined(separator: "\n") + "\n")
        }
        return test.directory.appendingPathComponent("days").path
    }

    func dayFiles(in test: TestWorkspace) -> [String] {
        (1...Self.days.count).map { test.directory.appendingPathComponent("days/2014-03-0\($0).jsonl").path }
    }

    @Test func oneRunStoresWhatOneRunPerFileStores() throws {
        let oneRun = try TestWorkspace()
        let summary = try oneRun.workspace.ingestReceipts(paths: [try writeDays(into: oneRun)])
        #expect(summary.filesIngested == 4)
        let perFile = try TestWorkspace()
        _ = try writeDays(into: perFile)
        for path in dayFiles(in: perFile) { _ = try perFile.workspace.ingestReceipts(paths: [path]) }
        // Day 1 in a run of its own, then the rest: the next run starts knowing nothing, and its first copy of
        // transaction 1 already disagrees with the stored one.
        let afterAFirstRun = try TestWorkspace()
        _ = try writeDays(into: afterAFirstRun)
        let days = dayFiles(in: afterAFirstRun)
        _ = try afterAFirstRun.workspace.ingestReceipts(paths: [days[0]])
        _ = try afterAFirstRun.workspace.ingestReceipts(paths: Array(days.dropFirst()))
        #expect(try oneRun.canonicalContents() == perFile.canonicalContents())
        #expect(try afterAFirstRun.canonicalContents() == perFile.canonicalContents())

        // And the result itself, by hand: the first copy of each transaction wins; every file's first disagreeing
        // copy of transaction 1 is a conflict (day 2's second "gems" copy repeats its first, day 4's date differs);
        // the refund and the upgrade from later copies are kept.
        #expect(try oneRun.count("SELECT count(*) FROM purchase") == 3)
        #expect(try oneRun.count("SELECT count(*) FROM purchase WHERE product_id = 'coins'") == 3)
        #expect(try oneRun.count("SELECT count(*) FROM purchase_conflict WHERE product_id = 'gems'") == 2)
        #expect(try oneRun.count("SELECT count(*) FROM purchase_conflict") == 3)
        #expect(
            try oneRun.count(
                "SELECT count(*) FROM purchase WHERE transaction_id = '2' AND cancellation_date IS NOT NULL")
                == 1)
        #expect(try oneRun.count("SELECT count(*) FROM purchase WHERE transaction_id = '3' AND is_upgraded") == 1)
        #expect(try oneRun.count("SELECT count(*) FROM receipt_purchase") == 14)
    }
}
