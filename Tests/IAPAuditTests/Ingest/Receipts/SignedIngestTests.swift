import AppStoreFormats
import Foundation
import IAPAudit
import Postgres
import TestSupport
import Testing

/// StoreKit 2 records through `ingest receipts` over a real PostgreSQL: every JWS stored with its verification
/// outcome, only what verified becoming a purchase or renewal, and a second ingest changing nothing.
struct SignedIngestTests {
    private static func sample(_ name: String) throws -> String {
        String(decoding: try TestCorpus.bytes("receipts/jws/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One JSON Lines file of real signed samples, each in another shape.
    private static func mixedShapes() throws -> String {
        let notification =
            try JSONSerialization.jsonObject(
                with: Data(try sample("imdhemy-real-v2-test-notification.json").utf8)) as? [String: Any]
        let signedPayload = try #require(notification?["signedPayload"] as? String)
        return [
            try sample("goiap-real-sandbox-renewalinfo.jws"),  // Apple-signed, sandbox: verified
            #"{"signedPayload":"\#(signedPayload)"}"#,  // a real V2 notification body: verified
            #"{"application_username":"carol@example.com","signed_transaction":"\#(try sample("xcode-signed-transaction.jws"))"}"#,
            // Apple's test CA: trusted only when given. (Its payload says too little to tell its kind alone.)
            #"{"signed_renewal_info":"\#(try sample("apple-mock-renewalInfo.jws"))"}"#,
        ].joined(separator: "\n") + "\n"
    }

    private static func outcomes(_ test: TestWorkspace) throws -> [String] {
        let rows = try test.connection.query(
            "SELECT kind || ' ' || outcome FROM signed_object ORDER BY receipt_id, ordinal")
        return (0..<rows.rowCount).compactMap { rows.string($0, 0) }
    }

    @Test func everyJWSIsStoredWithItsOutcomeAndOnlyVerifiedDataBecomesRows() throws {
        let test = try TestWorkspace()
        let path = try test.write("storekit2.jsonl", try Self.mixedShapes())
        let summary = try test.workspace.ingestReceipts(paths: [path])
        #expect(summary.stored == 4)
        #expect(summary.quarantined == 0)
        #expect(
            try Self.outcomes(test) == [
                "renewal-info verified", "notification verified", "transaction missing-x5c",
                "renewal-info untrusted-chain",
            ])
        #expect(summary.signedOutcomes == ["verified": 2, "missing-x5c": 1, "untrusted-chain": 1])
        // The Xcode transaction is kept as its signed object only: never a purchase.
        #expect(try test.count("SELECT count(*) FROM purchase") == 0)
        #expect(try test.count("SELECT count(*) FROM receipt_purchase") == 0)
        #expect(try test.count("SELECT count(*) FROM pending_renewal") == 1)
        #expect(try test.count("SELECT count(*) FROM app_store_notification WHERE notification_type = 'TEST'") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE shape = 'notification-v2' AND is_sandbox") == 1)
        #expect(try test.count("SELECT count(*) FROM receipt WHERE account_key IS NOT NULL") == 1)
    }

    @Test func aTrustedRootMakesItsRecordsVerify() throws {
        let test = try TestWorkspace(trustedRoots: [TestCorpus.path("receipts/certs/apple-lib-testCA.der")])
        let path = try test.write("storekit2.jsonl", try Self.mixedShapes())
        _ = try test.workspace.ingestReceipts(paths: [path])
        #expect(try Self.outcomes(test).last == "renewal-info verified")
        #expect(try test.count("SELECT count(*) FROM pending_renewal") == 2)
    }

    @Test func aRootFileThatIsNoCertificateIsAConfigurationError() throws {
        let test = try TestWorkspace(trustedRoots: ["/dev/null"])
        let path = try test.write("storekit2.jsonl", try Self.mixedShapes())
        #expect(throws: IAPAuditError.self) { try test.workspace.ingestReceipts(paths: [path]) }
    }

    @Test func ingestingTheSameRecordsAgainInAnotherFileChangesNothing() throws {
        let test = try TestWorkspace()
        let text = try Self.mixedShapes()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("a.jsonl", text)])
        let stored =
            "SELECT r.id, s.ordinal, s.outcome, n.ordinal FROM receipt r LEFT JOIN signed_object s ON "
            + "s.receipt_id = r.id LEFT JOIN pending_renewal n ON n.receipt_id = r.id ORDER BY 1, 2, 4"
        let before = try test.connection.query(stored).rows
        // The same records in another order, one of them as a JSON string instead of a bare line.
        let lines = text.split(separator: "\n").map(String.init)
        let reordered = [lines[3], lines[2], lines[1], "\"" + lines[0] + "\""]
        let summary = try test.workspace.ingestReceipts(
            paths: [try test.write("b.jsonl", reordered.joined(separator: "\n") + "\n")])
        #expect(summary.alreadyStored == 4)
        #expect(try test.connection.query(stored).rows == before)
    }

    private static func forgedSignatureFlags(_ test: TestWorkspace) throws -> [String] {
        let rows = try test.connection.query(
            "SELECT severity || ' ' || subject_kind || ' ' || subject_key || ' ' || (evidence ->> 'outcomes') "
                + "FROM flag WHERE rule = 'forged-signature' ORDER BY subject_key")
        return (0..<rows.rowCount).compactMap { rows.string($0, 0) }
    }

    @Test func whatDidNotVerifyIsFlaggedByForgedSignature() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("storekit2.jsonl", try Self.mixedShapes())])
        _ = try test.workspace.detect(rules: [.forgedSignature])
        let mockReceipt = try test.count("SELECT receipt_id FROM signed_object WHERE outcome = 'untrusted-chain'")
        let flags = try Self.forgedSignatureFlags(test)
        #expect(
            flags.sorted()
                == [
                    "warning receipt \(mockReceipt) [\"untrusted-chain\"]",
                    "info transaction xcode:0 [\"missing-x5c\"]",
                ]
                .sorted(), "\(flags)")
    }

    @Test func xcodeDataFromATesterIsNoFindingAndDetectIsIdempotent() throws {
        let test = try TestWorkspace()
        _ = try test.workspace.ingestReceipts(paths: [try test.write("storekit2.jsonl", try Self.mixedShapes())])
        var settings = DetectionSettings()
        settings.testerAccountKeys = [
            AccountKeyHasher(pepper: nil).key(forUsername: "carol@example.com")
        ]
        _ = try test.workspace.detect(rules: [.forgedSignature], settings: settings)
        let once = try Self.forgedSignatureFlags(test)
        #expect(once.count == 1)
        #expect(once.allSatisfy { !$0.contains("xcode") })
        _ = try test.workspace.detect(rules: [.forgedSignature], settings: settings)
        #expect(try Self.forgedSignatureFlags(test) == once)
    }
}
