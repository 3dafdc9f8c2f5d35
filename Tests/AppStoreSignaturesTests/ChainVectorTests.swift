import AppStoreFormats
import AppStoreSignatures
import Foundation
import Testing

/// The chains of `certs/apple-x509-chain-vectors.json` (from Apple's Python library's tests): Apple's real chain, a
/// test chain with Apple's OIDs, and the negative vectors, judged as chains alone.
struct ChainVectorTests {
    let vectors: SignedSamples.ChainVectors
    /// Apple Root CA - G3 plus the vectors' own test root.
    let store: TrustStore

    init() throws {
        vectors = try SignedSamples.chainVectors()
        var store = TrustStore.apple
        try store.addRoots(from: Array(try #require(Data(base64Encoded: vectors.testRoot))), source: "test root")
        self.store = store
    }

    var testChain: [String] { [vectors.testLeaf, vectors.testIntermediate, vectors.testRoot] }

    @Test func applesRealChainIsTrustedThroughTheBuiltInRoot() {
        let chain = [vectors.realLeaf, vectors.realIntermediate, vectors.realRoot]
        #expect(SignatureVerifier().verifyChain(chain, at: vectors.effectiveDate) == .verified)
        #expect(SignatureVerifier(trustStore: .empty).verifyChain(chain, at: vectors.effectiveDate) == .untrustedChain)
    }

    @Test func theTestChainIsTrustedOnlyWhenItsRootIsGiven() {
        #expect(SignatureVerifier(trustStore: store).verifyChain(testChain, at: vectors.effectiveDate) == .verified)
        #expect(SignatureVerifier().verifyChain(testChain, at: vectors.effectiveDate) == .untrustedChain)
    }

    @Test func theTestChainHasExpiredIn2042() {
        let later = Timestamp(millisecondsSince1970: 2_280_946_846_000)
        #expect(SignatureVerifier(trustStore: store).verifyChain(testChain, at: later) == .expiredAtSignedDate)
        let beforeIssue = Timestamp(millisecondsSince1970: 1_600_000_000_000)  // 2020, before every certificate
        #expect(SignatureVerifier(trustStore: store).verifyChain(testChain, at: beforeIssue) == .expiredAtSignedDate)
    }

    @Test func anIntermediateWithoutTheWWDROIDIsMissingAppleOID() {
        let chain = [vectors.leafForIntermediateMissingWWDROID, vectors.intermediateMissingWWDROID, vectors.testRoot]
        #expect(SignatureVerifier(trustStore: store).verifyChain(chain, at: vectors.effectiveDate) == .missingAppleOID)
    }

    @Test func aLeafWithoutTheReceiptSigningOIDIsMissingAppleOID() {
        let chain = [vectors.leafMissingReceiptSigningOID, vectors.testIntermediate, vectors.testRoot]
        #expect(SignatureVerifier(trustStore: store).verifyChain(chain, at: vectors.effectiveDate) == .missingAppleOID)
    }

    @Test func missingOIDsOnAnUntrustedChainAreAnUntrustedChain() {
        // Anyone can write Apple's OIDs into a certificate of their own (or leave them out): trust is judged first.
        let chain = [vectors.leafMissingReceiptSigningOID, vectors.testIntermediate, vectors.testRoot]
        #expect(SignatureVerifier().verifyChain(chain, at: vectors.effectiveDate) == .untrustedChain)
    }

    @Test func fewerThanThreeCertificatesIsMissingX5C() {
        let verifier = SignatureVerifier(trustStore: store)
        #expect(
            verifier.verifyChain([vectors.testLeaf, vectors.testIntermediate], at: vectors.effectiveDate) == .missingX5C
        )
        #expect(verifier.verifyChain([vectors.testLeaf], at: vectors.effectiveDate) == .missingX5C)
        #expect(verifier.verifyChain([], at: vectors.effectiveDate) == .missingX5C)
        #expect(verifier.verifyChain(nil, at: vectors.effectiveDate) == .missingX5C)
    }

    @Test func certificatesThatDoNotParseAreAnUntrustedChain() {
        let verifier = SignatureVerifier(trustStore: store)
        let date = vectors.effectiveDate
        #expect(
            verifier.verifyChain(["not base64!", vectors.testIntermediate, vectors.testRoot], at: date)
                == .untrustedChain)
        #expect(verifier.verifyChain([vectors.testLeaf, "AAAA", vectors.testRoot], at: date) == .untrustedChain)
        #expect(
            verifier.verifyChain(
                [vectors.testLeaf, vectors.testIntermediate, vectors.testRoot, vectors.testRoot], at: date)
                == .untrustedChain)
    }

    @Test func aChainInTheWrongOrderIsAnUntrustedChain() {
        let verifier = SignatureVerifier(trustStore: store)
        let date = vectors.effectiveDate
        #expect(
            verifier.verifyChain([vectors.testIntermediate, vectors.testLeaf, vectors.testRoot], at: date)
                == .untrustedChain)
        // A leaf from one chain under the intermediate of another: the signature between them fails.
        #expect(
            verifier.verifyChain([vectors.realLeaf, vectors.testIntermediate, vectors.testRoot], at: date)
                == .untrustedChain)
        // The root as its own intermediate: the root is no WWDR intermediate and did not sign the leaf.
        #expect(
            verifier.verifyChain([vectors.testLeaf, vectors.testRoot, vectors.testRoot], at: date) == .untrustedChain)
    }

    @Test func applesLeafInTheIntermediatesPlaceIsAnUntrustedChain() {
        // The root did not sign it (and it is no CA: OwnChainTests shows that check alone).
        let chain = [vectors.realLeaf, vectors.realLeaf, vectors.realRoot]
        #expect(SignatureVerifier().verifyChain(chain, at: vectors.effectiveDate) == .untrustedChain)
    }
}
