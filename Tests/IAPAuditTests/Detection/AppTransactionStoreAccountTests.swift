import Foundation
import IAPAudit
import Postgres
import Testing

@testable import SyntheticData

/// `appTransactionId` names one App Store account per app (docs/fraud-rules.md, "Store accounts"): verified signed
/// transactions that share one are one confirmed store account for `many-store-accounts` and `shared-store-account`,
/// over a real PostgreSQL. Every transaction here is a lone consumable in a record of its own, which without the link
/// would be an unconfirmed cluster of its own.
struct AppTransactionStoreAccountTests {
    typealias T = SignedTestData

    /// A verified gold purchase of `id` at 10:00 Pacific on March `day`, carrying `appTransactionId` when given,
    /// posted by `username`.
    static func purchase(
        _ data: SignedTestData, _ id: String, by username: String, app appTransaction: String?, day: Int,
        signer: SigningChain.Identity? = nil
    ) throws -> String {
        let extra: [(String, SignedJSON)] = appTransaction.map { [("appTransactionId", .string($0))] } ?? []
        let time = "2025-03-0\(day)T18:00:00Z"
        let payload = T.transaction(id, product: "gold", at: time, price: 990, extra: extra)
        return T.envelope(username, [try data.jws(payload, by: signer)])
    }

    static func workspace(_ data: SignedTestData) throws -> TestWorkspace {
        let test = try TestWorkspace(trustedRoots: [data.rootPath])
        _ = try test.workspace.importCatalog(path: try test.write("catalog.json", T.catalog), bundleID: nil)
        return test
    }

    /// Genuine gold purchases, each (transaction id, app account, appTransactionId, day of March 2025).
    static func purchases(_ data: SignedTestData, _ list: [(String, String, String?, Int)]) throws -> [String] {
        try list.map { try purchase(data, $0.0, by: $0.1, app: $0.2, day: $0.3) }
    }

    /// A workspace over the catalog whose first file, `name`, holds `list`'s purchases and then `more`'s records.
    static func workspace(
        ingesting list: [(String, String, String?, Int)], as name: String,
        more: (SignedTestData) throws -> [String] = { _ in [] }
    ) throws -> (SignedTestData, TestWorkspace) {
        let data = try SignedTestData()
        let test = try workspace(data)
        try ingest(test, name, try purchases(data, list) + more(data))
        return (data, test)
    }

    static func ingest(_ test: TestWorkspace, _ name: String, _ records: [String]) throws {
        let summary = try test.workspace.ingestReceipts(
            paths: [try test.write(name, records.joined(separator: "\n") + "\n")])
        #expect(summary.quarantined == 0)
    }

    /// Each member's store account, confirmation and appTransactionIds, as comparable rows.
    static func clusters(_ test: TestWorkspace) throws -> [[String?]] {
        try test.connection.query(
            """
            SELECT m.original_transaction_id, m.store_account_key, s.is_confirmed::text,
                (SELECT string_agg(t.app_transaction_id, ',' ORDER BY t.app_transaction_id)
                 FROM store_account_app_transaction t WHERE t.store_account_key = m.store_account_key)
            FROM store_account_member m JOIN store_account s ON s.key = m.store_account_key
            ORDER BY 1
            """
        ).rows
    }

    @Test func appAccountsSharingAnAppTransactionIdShareOneConfirmedStoreAccount() throws {
        let (_, test) = try Self.workspace(
            ingesting: [
                ("3000000001", "ann", "7000000001", 2), ("3000000002", "ben", "7000000001", 3),
                ("3000000003", "cat", "7000000001", 4),
                // No appTransactionId: a lone consumable stays an unconfirmed cluster of its own.
                ("3000000004", "ann", nil, 4),
            ],
            as: "shared.jsonl",
            // A forgery claiming the same appTransactionId is no purchase and so no member.
            more: { data in
                [
                    try Self.purchase(
                        data, "3000000005", by: "dan", app: "7000000001", day: 4, signer: data.chain.impostor)
                ]
            })
        _ = try test.workspace.detect(rules: [.sharedStoreAccount])
        #expect(
            try Self.clusters(test) == [
                ["3000000001", "sa-3000000001", "true", "7000000001"],
                ["3000000002", "sa-3000000001", "true", "7000000001"],
                ["3000000003", "sa-3000000001", "true", "7000000001"],
                ["3000000004", "sa-3000000004", "false", nil],
            ])
        #expect(
            try Self.flags(test, "shared-store-account", "subject_key", "evidence ->> 'app_accounts'") == [
                ["sa-3000000001", "3"]
            ])
    }

    @Test func anAppAccountPayingFromThreeAppTransactionIdsPaysFromThreeConfirmedStoreAccounts() throws {
        let (_, test) = try Self.workspace(
            ingesting: [
                ("3000000011", "eve", "7000000011", 2), ("3000000012", "eve", "7000000012", 5),
                ("3000000013", "eve", "7000000013", 8),
            ],
            as: "many.jsonl")
        _ = try test.workspace.detect(rules: [.manyStoreAccounts])
        #expect(
            try Self.flags(test, "many-store-accounts", "severity", "evidence ->> 'confirmed_store_accounts'")
                == [["warning", "3"]])
    }

    @Test func aLaterFileJoinsTheStoreAccountOfItsAppTransactionIdAsARebuildWould() throws {
        let (data, test) = try Self.workspace(
            ingesting: [("3000000022", "ann", "7000000021", 2), ("3000000023", "ben", "7000000021", 3)],
            as: "first.jsonl")
        _ = try test.workspace.detect(rules: [])
        #expect(try Self.clusters(test).map { $0[1] } == ["sa-3000000022", "sa-3000000022"])
        // A smaller transaction id of the same account, in a file of its own: the cluster takes its name.
        try Self.ingest(
            test, "second.jsonl",
            try Self.purchases(data, [("3000000021", "cat", "7000000021", 4)]))
        let summary = try test.workspace.detect(rules: [])
        #expect(summary.storeAccounts.renamed == 1)
        let incremental = try Self.clusters(test)
        #expect(incremental.map { $0[1] } == Array(repeating: "sa-3000000021", count: 3))
        #expect(
            try test.connection.query("SELECT merged_key, into_key FROM store_account_merge").rows
                == [["sa-3000000022", "sa-3000000021"]])
        _ = try test.workspace.detect(rules: [], rebuildStoreAccounts: true)
        #expect(try Self.clusters(test) == incremental)
    }

    /// Two columns of the flags `rule` raised, in subject order.
    private static func flags(
        _ test: TestWorkspace, _ rule: String, _ first: String, _ second: String
    ) throws
        -> [[String?]]
    {
        try test.connection.query(
            "SELECT \(first), (\(second)) FROM flag WHERE rule = $1 ORDER BY subject_key", [rule]
        ).rows
    }
}
