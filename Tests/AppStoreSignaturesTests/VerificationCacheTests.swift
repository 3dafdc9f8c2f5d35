import AppStoreFormats
import AppStoreSignatures
import Dispatch
import Foundation
import Testing

/// A chain is judged once however many records it signs, and one verifier serves many threads.
struct VerificationCacheTests {
    @Test func manyRecordsSignedByOneChainCostOneChainCheck() throws {
        let verifier = SignatureVerifier()
        let jws = try SignedSamples.jws("imdhemy-real-v2-test-notification.json")
        for _ in 0..<500 { #expect(verifier.verify(jws) == .verified) }
        #expect(verifier.statistics == .init(chainChecks: 1, cacheHits: 499))
    }

    @Test func theCachedVerdictStillJudgesEachRecordsSignatureAndDate() throws {
        // Same x5c, so the same cached chain: the tampered record must still fail on its own signature.
        let verifier = SignatureVerifier()
        let text = try SignedSamples.text("goiap-real-sandbox-renewalinfo.jws")
        let tampered = try SignedSamples.rewriting(text, payload: { $0[5] ^= 0x01 })
        #expect(verifier.verify(try CompactJWS(text)) == .verified)
        #expect(verifier.verify(try CompactJWS(tampered)) == .badSignature)
        #expect(verifier.verify(try CompactJWS(text)) == .verified)
        let chain = try CompactJWS(text).certificateChain
        #expect(
            verifier.verifyChain(chain, at: Timestamp(millisecondsSince1970: 1_800_000_000_000)) == .expiredAtSignedDate
        )
        #expect(verifier.statistics.chainChecks == 1)
    }

    @Test func rejectedChainsAreCachedToo() throws {
        let verifier = SignatureVerifier()
        let jws = try SignedSamples.jws("apple-mock-transactionInfo.jws")
        for _ in 0..<10 { #expect(verifier.verify(jws) == .untrustedChain) }
        #expect(verifier.statistics == .init(chainChecks: 1, cacheHits: 9))
    }

    @Test func aFloodOfDistinctChainsDoesNotGrowTheCacheWithoutBound() {
        let verifier = SignatureVerifier()
        let count = SignatureVerifier.cacheCapacity * 2 + 10
        for index in 0..<count {
            #expect(
                verifier.verifyChain(["bogus\(index)", "x", "y"], at: Timestamp(millisecondsSince1970: 0))
                    == .untrustedChain)
        }
        // Every chain was new, so each was judged; and the verifier still answers from its cache afterwards.
        #expect(verifier.statistics.chainChecks == count)
        #expect(
            verifier.verifyChain(["bogus\(count - 1)", "x", "y"], at: Timestamp(millisecondsSince1970: 0))
                == .untrustedChain)
        #expect(verifier.statistics.cacheHits == 1)
    }

    @Test func oneVerifierServesManyThreads() throws {
        let store = try SignedSamples.storeWithTestCA()
        let names = [
            "goiap-real-sandbox-renewalinfo.jws", "imdhemy-real-v2-test-notification.json",
            "apple-mock-transactionInfo.jws", "apple-mock-renewalInfo.jws", "xcode-signed-transaction.jws",
        ]
        let records = try names.map { try SignedSamples.jws($0) }
        let expected = records.map { SignatureVerifier(trustStore: store).verify($0) }
        #expect(expected == [.verified, .verified, .verified, .verified, .missingX5C])

        let shared = SignatureVerifier(trustStore: store)
        let rounds = 40
        let outcomes = OutcomeLog()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<rounds {
                let index = (thread + round) % records.count
                outcomes.append(index, shared.verify(records[index]))
            }
        }
        for (index, outcome) in outcomes.entries { #expect(outcome == expected[index]) }
        #expect(outcomes.entries.count == 8 * rounds)
        // Each distinct chain judged once, unless threads met it new at the same moment (go-iap's and imdhemy's
        // samples share Apple's chain of 2022-2023: four chains for five records).
        let distinct = Set(records.compactMap(\.certificateChain)).count
        #expect(distinct == 4)
        let statistics = shared.statistics
        #expect(statistics.chainChecks >= distinct && statistics.chainChecks <= distinct * 8)
        #expect(statistics.chainChecks + statistics.cacheHits == 8 * rounds)
    }
}

/// Outcomes collected from several threads.
final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(Int, VerificationOutcome)] = []

    func append(_ index: Int, _ outcome: VerificationOutcome) {
        lock.withLock { stored.append((index, outcome)) }
    }

    var entries: [(Int, VerificationOutcome)] { lock.withLock { stored } }
}
