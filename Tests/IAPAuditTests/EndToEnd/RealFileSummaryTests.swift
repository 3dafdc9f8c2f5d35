import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

@testable import SyntheticData

/// Through the binary: what real files showed the summary and the findings getting wrong.
struct RealFileSummaryTests {
    typealias T = SignedTestData

    static func run(_ arguments: [String], _ test: TestWorkspace) throws -> BinaryUnderTest.Outcome {
        let outcome = try BinaryUnderTest.run(arguments + ["--database-url", test.conninfo], timeout: 120)
        #expect(!outcome.timedOut && outcome.status == 0, "\(arguments.prefix(2)): \(outcome.stderr)")
        return outcome
    }

    @Test func theSummaryCountsTheSignedObjectsStoredAndSaysTheRestAreAlreadyStored() throws {
        let test = try TestWorkspace()
        let data = try SignedTestData()
        // Apple retries a notification until it is answered: the recorder kept every attempt, byte for byte.
        let notification = try data.notification(
            try data.jws(T.transaction("2000000301", product: "gold", at: "2025-03-02T18:00:00Z", price: 990)),
            uuid: "6f1c2a52-0000-4000-8000-000000000301", at: "2025-03-02T18:01:00Z")
        let forged = T.envelope(
            "mallory@example.com",
            [
                try data.jws(
                    T.transaction("2000000302", product: "gold", at: "2025-03-02T18:00:00Z", price: 990),
                    by: data.chain.impostor)
            ])
        try test.write(
            "receipts/notifications.jsonl", [notification, notification, forged, forged].joined(separator: "\n") + "\n")
        let ingest = try Self.run(
            [
                "ingest", "receipts", "--trusted-root", data.rootPath,
                test.directory.appendingPathComponent("receipts").path,
            ],
            test)
        #expect(ingest.stdout.contains("records: 4 read, 2 stored, 2 already stored"), "\(ingest.stdout)")
        #expect(
            ingest.stdout.contains("signed objects: 1 untrusted-chain, 2 verified, 3 already stored"),
            "\(ingest.stdout)")
        #expect(try test.count("SELECT count(*) FROM signed_object WHERE outcome = 'verified'") == 2)
        #expect(try test.count("SELECT count(*) FROM signed_object WHERE outcome = 'untrusted-chain'") == 1)
    }

    @Test func aSalesReportOf2017With27ColumnsIsAKnownLayout() throws {
        let test = try TestWorkspace()
        // Apple's layout before Order Type was added: the 28-column file without its last column.
        let lines = try String(
            contentsOf: TestCorpus.url("sales/sales_2020-10-05_28col_appstore-sdk-go_sales.tsv"), encoding: .utf8
        ).split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).dropLast().joined(separator: "\t")
        }
        #expect(lines.first?.hasSuffix("Preserved Pricing\tClient") == true)
        let report = try test.write("sales/S_D_80000001_20201005.txt", lines.joined(separator: "\n") + "\n")
        _ = try Self.run(["ingest", "sales", report], test)
        #expect(try test.count("SELECT count(*) FROM sales_report_row") == lines.count - 1)
        #expect(try test.count("SELECT count(*) FROM sales_report_finding WHERE code = 'unfamiliar-column-count'") == 0)
    }

    @Test func aServerAPIPageWithoutSignedObjectsIsStoredWhateverItsShape() throws {
        let test = try TestWorkspace()
        // A transaction history and a statuses answer for a customer with nothing to show: Apple's pages, both.
        let history =
            #"{"revision": "r1", "hasMore": false, "bundleId": "com.example.sk2", "appAppleId": 333, "#
            + #""environment": "Production"}"#
        let statuses = #"{"environment": "Production", "bundleId": "com.example.sk2", "appAppleId": 333, "data": []}"#
        let notifications = #"{"notificationHistory": [], "hasMore": false, "paginationToken": "p1"}"#
        try test.write("receipts/pages.jsonl", [history, statuses, notifications].joined(separator: "\n") + "\n")
        let ingest = try Self.run(["ingest", "receipts", test.directory.appendingPathComponent("receipts").path], test)
        #expect(ingest.stdout.contains("records: 3 read, 3 stored"), "\(ingest.stdout)")
        #expect(try test.count("SELECT count(*) FROM quarantine") == 0)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE shape = 'server-api' AND style = 'signed'") == 3)
    }
}
