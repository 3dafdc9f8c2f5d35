import AppStoreFormats
import AppStoreSignatures
import Foundation
import Testing

/// Every signed sample of the corpus, and the outcome offline verification must give it.
struct SignatureVerifierCorpusTests {
    static let realAppleSigned = ["goiap-real-sandbox-renewalinfo.jws", "imdhemy-real-v2-test-notification.json"]

    @Test(arguments: realAppleSigned)
    func realAppleSignedDataVerifiesAgainstAppleRootCAG3(_ name: String) throws {
        let verifier = SignatureVerifier()
        #expect(verifier.verify(try SignedSamples.jws(name)) == .verified)
    }

    @Test func aLeafThatExpiredSinceStillVerifiesAtItsSignedDate() throws {
        // go-iap's renewal info was signed 2023-05-23; its leaf expired 2023-09-24. Judged "now" it would fail.
        let jws = try SignedSamples.jws("goiap-real-sandbox-renewalinfo.jws")
        let verifier = SignatureVerifier()
        #expect(verifier.verify(jws) == .verified)
        let now = Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
        #expect(verifier.verifyChain(jws.certificateChain, at: now) == .expiredAtSignedDate)
        let dayAfterExpiry = Timestamp(millisecondsSince1970: 1_695_600_000_000)  // 2023-09-25
        #expect(verifier.verifyChain(jws.certificateChain, at: dayAfterExpiry) == .expiredAtSignedDate)
    }

    @Test(arguments: realAppleSigned)
    func realAppleSignedDataDoesNotVerifyWithoutAppleRoot(_ name: String) throws {
        var store = TrustStore.empty
        try store.addRoots(from: try SignedSamples.appleTestCA(), source: "apple-lib-testCA.der")
        #expect(SignatureVerifier(trustStore: store).verify(try SignedSamples.jws(name)) == .untrustedChain)
    }

    @Test(arguments: ["apple-mock-transactionInfo.jws", "apple-mock-renewalInfo.jws"])
    func applesTestCAFilesVerifyOnlyWhenThatRootIsGiven(_ name: String) throws {
        let jws = try SignedSamples.jws(name)
        #expect(SignatureVerifier().verify(jws) == .untrustedChain)
        #expect(SignatureVerifier(trustStore: try SignedSamples.storeWithTestCA()).verify(jws) == .verified)
    }

    @Test func anX5CRootThatIsNotTheTrustedOneIsNeverTrustedForBeingThere() throws {
        // transactionInfo's x5c[2] is a different certificate with the test root's key: the chain verifies through
        // the store's root; x5c[2] itself, made a root of nothing, earns no trust.
        let jws = try SignedSamples.jws("apple-mock-transactionInfo.jws")
        let chain = try #require(jws.certificateChain)
        let carriedRoot = try #require(Data(base64Encoded: chain[2]))
        #expect(Array(carriedRoot) != (try SignedSamples.appleTestCA()))
        var onlyCarried = TrustStore.empty
        try onlyCarried.addRoots(from: Array(carriedRoot), source: "x5c[2]")
        // The carried root has the same key and name as the test CA, so it does sign the intermediate: trusting it
        // explicitly works, which shows the refusal above comes from the store, not from the chain.
        #expect(SignatureVerifier(trustStore: onlyCarried).verify(jws) == .verified)
        #expect(SignatureVerifier(trustStore: .empty).verify(jws) == .untrustedChain)
    }

    @Test func aPayloadWithoutSignedDateCannotBeJudgedAtItsSigningTime() throws {
        // Apple's synthetic TEST notification carries no signedDate; its signature and chain hold.
        let jws = try SignedSamples.jws("apple-mock-notification-wrongBundleId.jws")
        #expect(jws.signedDate == nil)
        let verifier = SignatureVerifier(trustStore: try SignedSamples.storeWithTestCA())
        #expect(verifier.verify(jws) == .noSigningDate)
        let signedIn2024 = try SignedSamples.rewriting(
            SignedSamples.text("apple-mock-notification-wrongBundleId.jws"),
            payload: {
                SignedSamples.replacing(
                    #""notificationType""#, with: #""signedDate":1704067200000,"notificationType""#, in: &$0)
            })
        // Adding the date breaks the signature, and the signature is judged before the date.
        #expect(verifier.verify(try CompactJWS(signedIn2024)) == .badSignature)
    }

    @Test func aMissingX5CHeaderIsMissingX5C() throws {
        let jws = try SignedSamples.jws("apple-mock-missingX5CHeaderClaim.jws")
        #expect(SignatureVerifier(trustStore: try SignedSamples.storeWithTestCA()).verify(jws) == .missingX5C)
    }

    @Test(arguments: [
        "xcode-signed-transaction.jws", "xcode-signed-renewal-info.jws", "xcode-signed-app-transaction.jws",
    ])
    func xcodeSignedDataNeverVerifies(_ name: String) throws {
        let jws = try SignedSamples.jws(name)
        #expect(jws.certificateChain?.count == 1)
        var everything = try SignedSamples.storeWithTestCA()
        // Even with Xcode's own self-signed certificate trusted, one certificate is no Apple chain.
        try everything.addRoots(
            from: Array(try #require(Data(base64Encoded: jws.certificateChain?[0] ?? ""))), source: "xcode")
        #expect(SignatureVerifier(trustStore: everything).verify(jws) == .missingX5C)
    }

    @Test(arguments: realAppleSigned + ["apple-mock-transactionInfo.jws"])
    func tamperingOneByteOfThePayloadIsABadSignature(_ name: String) throws {
        let text = try SignedSamples.text(name)
        let verifier = SignatureVerifier(trustStore: try SignedSamples.storeWithTestCA())
        #expect(verifier.verify(try CompactJWS(text)) == .verified)
        let tampered = try SignedSamples.rewriting(text, payload: { $0[$0.count - 2] ^= 0x01 })
        #expect(verifier.verify(try CompactJWS(tampered)) == .badSignature)
    }

    @Test func tamperingTheSignedDateIsABadSignatureNotAnExpiry() throws {
        // Moving signedDate past the leaf's expiry: the date is the payload's word, worthless once the signature fails.
        let text = try SignedSamples.text("goiap-real-sandbox-renewalinfo.jws")
        let tampered = try SignedSamples.rewriting(
            text, payload: { SignedSamples.replacing("1684822778492", with: "1795600000000", in: &$0) })
        let jws = try CompactJWS(tampered)
        #expect(jws.signedDate == Timestamp(millisecondsSince1970: 1_795_600_000_000))
        #expect(SignatureVerifier().verify(jws) == .badSignature)
    }

    @Test func tamperingTheSignatureIsABadSignature() throws {
        let text = try SignedSamples.text("imdhemy-real-v2-test-notification.json")
        let parts = text.split(separator: ".").map(String.init)
        var signature = try SignedSamples.bytes(base64URL: parts[2])
        signature[10] ^= 0x80
        let flipped = parts[0] + "." + parts[1] + "." + SignedSamples.base64URL(signature)
        #expect(SignatureVerifier().verify(try CompactJWS(flipped)) == .badSignature)
        let short = parts[0] + "." + parts[1] + "." + SignedSamples.base64URL(signature.prefix(63))
        #expect(SignatureVerifier().verify(try CompactJWS(short)) == .badSignature)
    }

    @Test(arguments: ["none", "HS256", "ES384", "RS256", "es256"])
    func anAlgorithmOtherThanES256IsUnsupported(_ algorithm: String) throws {
        let text = try SignedSamples.text("imdhemy-real-v2-test-notification.json")
        let rewritten = try SignedSamples.rewriting(
            text, header: { SignedSamples.replacing(#""alg":"ES256""#, with: #""alg":"\#(algorithm)""#, in: &$0) })
        #expect(SignatureVerifier().verify(try CompactJWS(rewritten)) == .unsupportedAlgorithm)
    }

    @Test func aHeaderWithoutAlgorithmIsUnsupported() throws {
        let text = try SignedSamples.text("imdhemy-real-v2-test-notification.json")
        let rewritten = try SignedSamples.rewriting(
            text, header: { SignedSamples.replacing(#""alg":"ES256","#, with: "", in: &$0) })
        let jws = try CompactJWS(rewritten)
        #expect(jws.algorithm == nil)
        #expect(SignatureVerifier().verify(jws) == .unsupportedAlgorithm)
    }

    @Test func removingTheX5CIsMissingX5C() throws {
        let text = try SignedSamples.text("imdhemy-real-v2-test-notification.json")
        let rewritten = try SignedSamples.rewriting(
            text, header: { SignedSamples.replacing(#""x5c""#, with: #""x5d""#, in: &$0) })
        #expect(SignatureVerifier().verify(try CompactJWS(rewritten)) == .missingX5C)
    }

    @Test func outcomesKeepTheirStoredNames() {
        #expect(
            VerificationOutcome.allCases.map(\.rawValue) == [
                "verified", "unsupported-algorithm", "missing-x5c", "untrusted-chain", "missing-apple-oid",
                "bad-signature", "expired-at-signed-date", "no-signing-date",
            ])
        #expect(VerificationOutcome.verified.isVerified)
        #expect(!VerificationOutcome.badSignature.isVerified)
    }
}
