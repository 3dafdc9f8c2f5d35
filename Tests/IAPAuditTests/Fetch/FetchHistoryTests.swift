import AppleStandIn
import Foundation
import IAPAudit
import TestSupport
import Testing

@testable import SyntheticData

/// `iap-audit fetch history`: transaction and refund history of named transactions, with Apple's revision.
@Suite(.serialized) struct FetchHistoryTests {
    @Test func aRepeatedFetchAsksOnlyForWhatChangedAndTheRunAuditsIt() throws {
        let test = try TestWorkspace()
        let apple = try NotificationFixture(test: test)
        func renewal(_ id: String, _ day: Int, refunded: Bool = false) throws -> AppleStandIn.HistoryEntry {
            var extra: [(String, SignedJSON)] = []
            if refunded {
                extra.append(("revocationDate", .integer(SignedTestData.milliseconds("2025-04-0\(day + 1)T00:00:00Z"))))
            }
            let jws = try apple.signed.jws(
                SignedTestData.transaction(
                    id, product: "plus", type: "Auto-Renewable Subscription", at: "2025-03-0\(day)T12:00:00Z",
                    original: "7000", extra: extra))
            return .init(
                bundleID: NotificationFixture.bundleID, transactionIDs: ["7000", id], signedTransaction: jws,
                refunded: refunded)
        }
        apple.standIn.addHistory([
            try renewal("7000", 1), try renewal("7001", 2), try renewal("7002", 3, refunded: true),
        ])
        let config = try apple.configuration()
        let ids = try test.write("ids.txt", "# flagged by hand\n7000\n")
        let first = try BinaryUnderTest.run([
            "fetch", "history", "--config", config, "--from-file", ids, "--transaction", "123",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains(
                "history: 2 transactions asked, 2 pages stored, 3 signed transactions, 1 refunded; unknown to Apple: 123"
            ), "\(first.stdout)")

        apple.standIn.addHistory([try renewal("7003", 4)])
        let before = apple.standIn.requests.count
        let second = try BinaryUnderTest.run(["fetch", "history", "--config", config, "--transaction", "7000"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("1 pages stored, 1 signed transactions, 0 refunded"), "\(second.stdout)")
        let asked = apple.standIn.requests.dropFirst(before)
        #expect(asked.allSatisfy { $0.contains("revision=r") }, "\(Array(asked))")

        let out = test.directory.appendingPathComponent("out").path
        let run = try BinaryUnderTest.run(["run", "--config", config, "--out", out, "--report", "reconciliation"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try test.count("SELECT count(*) FROM purchase WHERE original_transaction_id = '7000'") == 4)
        #expect(
            try test.count(
                "SELECT count(*) FROM purchase WHERE transaction_id = '7002' AND revocation_date IS NOT NULL") == 1)
    }
}
