import AppStoreFormats
import AppStoreSignatures
import Testing
import X509

/// Chains made here, to show each rule of "leads to a trusted root" failing on its own.
struct OwnChainTests {
    /// Signed 2025-01-01, when every certificate of the default shape is valid.
    static let payload = #"{"transactionId":"1","signedDate":1735689600000}"#

    func outcome(_ shape: OwnChain.Shape) throws -> VerificationOutcome {
        let chain = try OwnChain(shape)
        return SignatureVerifier(trustStore: try chain.trustStore()).verify(try chain.sign(payload: Self.payload))
    }

    @Test func aChainShapedLikeApplesVerifiesThroughItsRootOnly() throws {
        let chain = try OwnChain()
        let jws = try chain.sign(payload: Self.payload)
        #expect(SignatureVerifier(trustStore: try chain.trustStore()).verify(jws) == .verified)
        #expect(SignatureVerifier().verify(jws) == .untrustedChain)
    }

    @Test func anIntermediateThatIsNoCAIsAnUntrustedChain() throws {
        var shape = OwnChain.Shape()
        shape.intermediateIsCA = false
        #expect(try outcome(shape) == .untrustedChain)
    }

    @Test func anIntermediateWhoseKeyMayNotSignCertificatesIsAnUntrustedChain() throws {
        var shape = OwnChain.Shape()
        shape.intermediateKeyUsage = KeyUsage(digitalSignature: true)
        #expect(try outcome(shape) == .untrustedChain)
    }

    @Test func aLeafWhoseKeyMayNotSignDataIsAnUntrustedChain() throws {
        var shape = OwnChain.Shape()
        shape.leafKeyUsage = KeyUsage(keyEncipherment: true)
        #expect(try outcome(shape) == .untrustedChain)
    }

    @Test func anUnknownCriticalExtensionIsAnUntrustedChainAndANonCriticalOneIsIgnored() throws {
        var shape = OwnChain.Shape()
        shape.leafUnknownExtensionIsCritical = true
        #expect(try outcome(shape) == .untrustedChain)
        shape.leafUnknownExtensionIsCritical = false
        #expect(try outcome(shape) == .verified)
    }

    @Test func missingOIDsOnATrustedChainAreMissingAppleOID() throws {
        var shape = OwnChain.Shape()
        shape.intermediateHasWWDROID = false
        #expect(try outcome(shape) == .missingAppleOID)
        shape = OwnChain.Shape()
        shape.leafHasReceiptSigningOID = false
        #expect(try outcome(shape) == .missingAppleOID)
    }

    @Test func aLeafKeyThatIsNotP256IsABadSignature() throws {
        var shape = OwnChain.Shape()
        shape.leafKeyIsP384 = true
        #expect(try outcome(shape) == .badSignature)
    }

    @Test func aRootOfTheSameNameWithAnotherKeyIsAnUntrustedChain() throws {
        // An impostor root named like the trusted one: names match, the signature over the intermediate does not.
        let genuine = try OwnChain()
        let impostor = try OwnChain(rootName: "Own Root CA")
        let jws = try impostor.sign(payload: Self.payload)
        #expect(SignatureVerifier(trustStore: try genuine.trustStore()).verify(jws) == .untrustedChain)
    }

    @Test(arguments: ["root", "intermediate", "leaf"])
    func everyCertificateMustBeValidAtSignedDate(_ which: String) throws {
        var shape = OwnChain.Shape()
        let expired = OwnChain.Validity(from: 1_700_000_000, until: 1_730_000_000)  // until 2024-10-27
        switch which {
        case "root": shape.rootValidity = expired
        case "intermediate": shape.intermediateValidity = expired
        default: shape.leafValidity = expired
        }
        #expect(try outcome(shape) == .expiredAtSignedDate)
    }

    @Test func validityBoundsAreInclusiveToTheMillisecond() throws {
        var shape = OwnChain.Shape()
        shape.leafValidity = OwnChain.Validity(from: 1_735_689_600, until: 1_735_776_000)  // 2025-01-01 to 01-02
        let chain = try OwnChain(shape)
        let verifier = SignatureVerifier(trustStore: try chain.trustStore())
        let x5c = try chain.x5c()
        func at(_ milliseconds: Int64) -> VerificationOutcome {
            verifier.verifyChain(x5c, at: Timestamp(millisecondsSince1970: milliseconds))
        }
        #expect(at(1_735_689_599_999) == .expiredAtSignedDate)
        #expect(at(1_735_689_600_000) == .verified)
        #expect(at(1_735_776_000_000) == .verified)
        #expect(at(1_735_776_000_001) == .expiredAtSignedDate)
    }

    @Test func aWrongAlgorithmWinsOverEverythingElse() throws {
        var shape = OwnChain.Shape()
        shape.intermediateIsCA = false
        let chain = try OwnChain(shape)
        let jws = try chain.sign(payload: #"{"signedDate":1}"#, algorithm: "none")
        #expect(SignatureVerifier(trustStore: try chain.trustStore()).verify(jws) == .unsupportedAlgorithm)
    }
}
