import AppStoreFormats
import AppStoreSignatures
import Foundation
import Postgres
import TestSupport
import Testing

@testable import IAPAudit

/// Each distinct JWS of a run is verified once (`VerifiedSignatures`): the same signed transaction in an envelope, a
/// second envelope and a history page of a later file costs one ES256 check, and a forgery that reuses a genuine
/// signature over other bytes is judged on its own.
struct VerifiedOnceTests {
    @Test func aRepeatedJWSIsCheckedOnceAndAForgeryStillFails() throws {
        typealias T = SignedTestData
        let data = try SignedTestData()
        let test = try TestWorkspace()
        let genuine = try data.jws(T.transaction("5000000001", product: "gold", at: "2025-03-02T18:00:00Z"))
        // The genuine signature over another payload: the same signature bytes, a different signing input.
        let other = try data.jws(T.transaction("5000000002", product: "gold", at: "2025-03-02T18:05:00Z"))
        let parts = genuine.split(separator: ".")
        let forged = [other.split(separator: ".")[0], other.split(separator: ".")[1], parts[2]].joined(separator: ".")
        try test.write("receipts/a.jsonl", T.envelope("ann", [genuine]) + "\n" + T.envelope("bob", [genuine]) + "\n")
        try test.write("receipts/b.jsonl", T.historyPage([genuine, forged]) + "\n")

        var trust = TrustStore.apple
        try trust.addRoots(contentsOfFile: data.rootPath)
        let verifier = SignatureVerifier(trustStore: trust)
        let ingest = ReceiptIngest(
            connection: test.connection, hasher: AccountKeyHasher(pepper: nil), verifier: verifier, runID: nil,
            logger: TestPostgres.logger)
        // One file after the other: files parsed at once may both meet a new JWS before either has its outcome.
        _ = try ingest.ingest(paths: [test.directory.appendingPathComponent("receipts/a.jsonl").path])
        _ = try ingest.ingest(paths: [test.directory.appendingPathComponent("receipts/b.jsonl").path])

        // Every verification asks the chain cache once: two asks, for two distinct JWS among four copies.
        #expect(verifier.statistics.chainChecks + verifier.statistics.cacheHits == 2)
        let outcomes = try test.connection.query(
            "SELECT outcome, count(*)::text FROM signed_object GROUP BY outcome ORDER BY outcome"
        ).rows
        #expect(outcomes == [["bad-signature", "1"], ["verified", "3"]])
    }
}
