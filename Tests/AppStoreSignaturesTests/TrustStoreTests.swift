import AppStoreSignatures
import Crypto
import Foundation
import TestSupport
import Testing

/// The built-in Apple root and the roots a user adds from DER or PEM.
struct TrustStoreTests {
    @Test func theBuiltInRootIsAppleRootCAG3() throws {
        #expect(TrustStore.apple.count == 1)
        #expect(TrustStore.apple.subjects.first?.contains("CN=Apple Root CA - G3") == true)
        // The same certificate as the one in Apple's real chain in the vectors, byte for byte: it verifies there.
        let vectors = try SignedSamples.chainVectors()
        #expect(
            SignatureVerifier().verifyChain(
                [vectors.realLeaf, vectors.realIntermediate, vectors.realRoot], at: vectors.effectiveDate) == .verified)
    }

    @Test func theBuiltInRootHasApplesPublishedFingerprint() throws {
        // https://www.apple.com/certificateauthority/ publishes AppleRootCA-G3.cer's SHA-256 fingerprint.
        let vectors = try SignedSamples.chainVectors()
        let der = try #require(Data(base64Encoded: vectors.realRoot))
        let fingerprint = SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined()
        #expect(fingerprint == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        var store = TrustStore.apple
        try store.addRoots(from: Array(der), source: "the same root again")
        #expect(store.count == 1, "the vectors' root is the built-in one, so adding it adds nothing")
    }

    static func pem(_ der: [UInt8]) -> String {
        let base64 = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
    }

    @Test func addsRootsFromDERAndFromPEMWithSeveralCertificates() throws {
        let testCA = try SignedSamples.appleTestCA()
        var fromDER = TrustStore.empty
        try fromDER.addRoots(from: testCA, source: "der")
        #expect(fromDER.count == 1)

        let vectors = try SignedSamples.chainVectors()
        let appleRoot = Array(try #require(Data(base64Encoded: vectors.realRoot)))
        let text = "a comment before the blocks\n" + Self.pem(testCA) + Self.pem(appleRoot) + Self.pem(testCA)
        var fromPEM = TrustStore.empty
        try fromPEM.addRoots(from: Array(text.utf8), source: "pem")
        #expect(fromPEM.count == 2, "two certificates, one of them twice")
        let store = SignatureVerifier(trustStore: fromPEM)
        #expect(store.verify(try SignedSamples.jws("apple-mock-renewalInfo.jws")) == .verified)
        #expect(store.verify(try SignedSamples.jws("goiap-real-sandbox-renewalinfo.jws")) == .verified)
    }

    @Test func addsRootsFromAFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("root.pem").path
        try Data(Self.pem(try SignedSamples.appleTestCA()).utf8).write(to: URL(fileURLWithPath: path))
        var store = TrustStore.apple
        try store.addRoots(contentsOfFile: path)
        #expect(store.count == 2)
        #expect(
            SignatureVerifier(trustStore: store).verify(try SignedSamples.jws("apple-mock-transactionInfo.jws"))
                == .verified)
    }

    @Test func refusesBytesThatHoldNoCertificate() throws {
        var store = TrustStore.empty
        #expect(throws: AppStoreSignaturesError.self) { try store.addRoots(from: Array("hello".utf8), source: "x") }
        #expect(throws: AppStoreSignaturesError.self) { try store.addRoots(from: [], source: "empty") }
        let key = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n"
        #expect(throws: AppStoreSignaturesError.self) { try store.addRoots(from: Array(key.utf8), source: "key.pem") }
        let missing = "/nonexistent/iap-audit-root.der"
        #expect {
            try store.addRoots(contentsOfFile: missing)
        } throws: { error in
            (error as? AppStoreSignaturesError)?.description.hasPrefix("trusted root \(missing): cannot be read")
                == true
        }
        #expect(store.count == 0)
    }
}
