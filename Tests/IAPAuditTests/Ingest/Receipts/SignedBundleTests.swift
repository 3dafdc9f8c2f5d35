import Foundation
import IAPAudit
import Postgres
import Testing

@testable import SyntheticData

/// A signed transaction names its app itself: a record that holds several apps' transactions (an envelope our server
/// wrote, a page) stores each under its own `bundleId`, never under the first one the record mentions.
struct SignedBundleTests {
    @Test func eachSignedTransactionKeepsItsOwnApp() throws {
        typealias T = SignedTestData
        let data = try SignedTestData()
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        let ours = T.transaction("4000000001", product: "gold", at: "2025-03-02T18:00:00Z")
        let other = T.transaction(
            "4000000002", product: "other.gold", at: "2025-03-02T18:05:00Z",
            extra: [("bundleId", .string("com.example.other"))])
        let record = T.envelope("ann", [try data.jws(ours), try data.jws(other)])
        let summary = try test.workspace.ingestReceipts(paths: [try test.write("two-apps.jsonl", record + "\n")])
        #expect(summary.quarantined == 0)
        let rows = try test.connection.query(
            "SELECT transaction_id, bundle_id FROM purchase ORDER BY transaction_id"
        ).rows
        #expect(rows == [["4000000001", "com.example.sk2"], ["4000000002", "com.example.other"]])
    }
}
