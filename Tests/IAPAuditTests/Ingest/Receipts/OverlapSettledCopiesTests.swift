import Foundation
import IAPAudit
import Testing

/// With files overlapped (`FileRun`), file N+1 stages its copies while file N's statements still run, so it may ask
/// `SettledTransactions` before file N has recorded what it committed. The stored result must still be what one file
/// after another gives: a copy that reverses a refund the file just before brought must reach the merge.
struct OverlapSettledCopiesTests {
    static let purchaseMilliseconds = 1_393_754_400_000

    /// One receipt requested at `requestMilliseconds` (what a verifyReceipt copy's state is dated by), holding
    /// transaction `id`, refunded or not.
    static func record(_ id: String, requestedAt requestMilliseconds: Int, refunded: Bool = false) -> String {
        var entry = [
            #""transaction_id": "\#(id)""#, #""original_transaction_id": "\#(id)""#, #""product_id": "coins""#,
            #""quantity": "1""#, #""purchase_date_ms": "\#(purchaseMilliseconds)""#,
        ]
        if refunded { entry.append(#""cancellation_date_ms": "1393840800000", "cancellation_reason": "0""#) }
        return #"{"application_username": "carol@example.com", "response": {"status": 0, "#
            + #""environment": "Production", "receipt": {"bundle_id": "com.example.game", "#
            + #""request_date_ms": "\#(requestMilliseconds)", "in_app": [{"# + entry.joined(separator: ", ") + "}]}}}"
    }

    /// Day 1 buys transaction 7; day 2 refunds it, among thousands of other purchases (its statements take long
    /// enough for day 3 to load meanwhile); day 3, requested later, shows it without the refund: Apple reversed it.
    static func writeDays(into test: TestWorkspace) throws -> [String] {
        let day = 86_400_000
        let fillers = (0..<4000).map { record("f\($0)", requestedAt: purchaseMilliseconds + 2 * day) }
        return [
            try test.write("days/1.jsonl", record("7", requestedAt: purchaseMilliseconds + day) + "\n"),
            try test.write(
                "days/2.jsonl",
                ([record("7", requestedAt: purchaseMilliseconds + 2 * day, refunded: true)] + fillers)
                    .joined(separator: "\n") + "\n"),
            try test.write("days/3.jsonl", record("7", requestedAt: purchaseMilliseconds + 3 * day) + "\n"),
        ]
    }

    /// Transaction 7's state as stored: its refund, and the copies its history keeps.
    static func state(_ test: TestWorkspace) throws -> (refunded: Int, history: Int) {
        (
            try test.count(
                "SELECT count(*) FROM purchase WHERE transaction_id = '7' AND cancellation_date IS NOT NULL"),
            try test.count("SELECT count(*) FROM purchase_state WHERE transaction_id = '7'")
        )
    }

    @Test func aReversalRightAfterTheRefundReachesTheMerge() throws {
        let perFile = try TestWorkspace()
        for path in try Self.writeDays(into: perFile) { _ = try perFile.workspace.ingestReceipts(paths: [path]) }
        // One file after another: the reversal (day 3) is the latest copy, so the refund no longer stands, and the
        // history keeps the purchase, the refund and the reversal.
        let expected = try Self.state(perFile)
        #expect(expected.refunded == 0 && expected.history == 3)

        let oneRun = try TestWorkspace()
        let summary = try oneRun.workspace.ingestReceipts(paths: try Self.writeDays(into: oneRun))
        #expect(summary.filesIngested == 3)
        let actual = try Self.state(oneRun)
        #expect(actual.refunded == expected.refunded, "the refund still stands: day 3's reversal was never staged")
        #expect(actual.history == expected.history, "transaction 7's history lacks day 3's copy")
    }

    /// Day 1 buys transaction 7; day 2 shows it unrefunded (after thousands of other purchases, so that day 1 has long
    /// finished when day 2's loader reaches it) and, later in the file, refunded. Ingested one file a run, day 2's
    /// unrefunded copy is history (the state said before the refund); in one run it must be too, whether or not day 1
    /// has ended by then: what a file stages never depends on how fast the file before it ran.
    @Test func anUnrefundedCopyBeforeTheRefundIsKeptHoweverFastTheFileBeforeRan() throws {
        let day = 86_400_000
        func writeDays(into test: TestWorkspace) throws -> [String] {
            let fillers = (0..<4000).map { Self.record("f\($0)", requestedAt: Self.purchaseMilliseconds + day) }
            return [
                try test.write("days/1.jsonl", Self.record("7", requestedAt: Self.purchaseMilliseconds + day) + "\n"),
                try test.write(
                    "days/2.jsonl",
                    (fillers + [
                        Self.record("7", requestedAt: Self.purchaseMilliseconds + 2 * day),
                        Self.record("7", requestedAt: Self.purchaseMilliseconds + 3 * day, refunded: true),
                    ]).joined(separator: "\n") + "\n"),
            ]
        }
        let perFile = try TestWorkspace()
        for path in try writeDays(into: perFile) { _ = try perFile.workspace.ingestReceipts(paths: [path]) }
        let expected = try Self.state(perFile)
        // The purchase as first stored, day 2's unrefunded copy, the refund.
        #expect(expected.refunded == 1 && expected.history == 3)

        let oneRun = try TestWorkspace()
        _ = try oneRun.workspace.ingestReceipts(paths: try writeDays(into: oneRun))
        let actual = try Self.state(oneRun)
        #expect(actual.refunded == expected.refunded)
        #expect(actual.history == expected.history, "day 2's unrefunded copy was skipped as settled by day 1")
    }

    /// Day 1 buys transaction 7; day 2 is about something else; day 3 shows 7 unrefunded and then refunded. Day 1 has
    /// settled 7 two files back, so day 3's unrefunded copy is skipped as settled while it is read, but the refund
    /// after it makes the merge keep the file's every copy of 7: one run stores the history one file a run stores.
    @Test func anUnrefundedCopyBeforeTheRefundIsKeptWhenTheSettlingFileIsTwoBack() throws {
        let day = 86_400_000
        func writeDays(into test: TestWorkspace) throws -> [String] {
            [
                try test.write("days/1.jsonl", Self.record("7", requestedAt: Self.purchaseMilliseconds + day) + "\n"),
                try test.write(
                    "days/2.jsonl", Self.record("g", requestedAt: Self.purchaseMilliseconds + 2 * day) + "\n"),
                try test.write(
                    "days/3.jsonl",
                    Self.record("7", requestedAt: Self.purchaseMilliseconds + 3 * day) + "\n"
                        + Self.record("7", requestedAt: Self.purchaseMilliseconds + 4 * day, refunded: true) + "\n"),
            ]
        }
        let perFile = try TestWorkspace()
        for path in try writeDays(into: perFile) { _ = try perFile.workspace.ingestReceipts(paths: [path]) }
        let expected = try RetriedRecordCopiesTests.states(perFile)
        // The purchase as first stored, day 3's unrefunded copy, the refund.
        #expect(try Self.state(perFile) == (refunded: 1, history: 3))

        let oneRun = try TestWorkspace()
        _ = try oneRun.workspace.ingestReceipts(paths: try writeDays(into: oneRun))
        #expect(
            try RetriedRecordCopiesTests.states(oneRun) == expected, "day 3's unrefunded copy was skipped as settled")
    }
}
