import Testing

@testable import AppStoreFormats

struct AccountKeyHasherTests {
    @Test func matchesApplesPublishedExample() {
        #expect(
            AccountKeyHasher.appleHash(of: "userNameOnYourServer")
                == "5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a68")
    }

    @Test func hashesNonASCIINamesOverTheirUTF8BytesWithoutNormalisation() {
        // Expected value from Python's hashlib over "José".encode("utf-8") (precomposed é: C3 A9).
        let composed = AccountKeyHasher.appleHash(of: "Jos\u{E9}")
        #expect(composed == "24c2ab65-b7adab7e-070ba05a-00a3f3ae-074e28b8-bcdd5973-5b7107e7-a538a551")
        // No Unicode normalisation: the decomposed spelling is a different account.
        #expect(AccountKeyHasher.appleHash(of: "Jose\u{301}") != composed)
    }

    @Test func pepperTurnsTheKeyIntoAnHMACOfTheAppleHash() {
        let plain = AccountKeyHasher(pepper: nil)
        let peppered = AccountKeyHasher(pepper: Array("secret".utf8))
        let key = peppered.key(forUsername: "userNameOnYourServer")
        #expect(key != plain.key(forUsername: "userNameOnYourServer"))
        #expect(key == peppered.key(forAppleHash: AccountKeyHasher.appleHash(of: "userNameOnYourServer")))
        #expect(AccountKeyHasher.canonicalAppleHash(key) == key)
        #expect(plain.scheme == "apple-sha256")
        #expect(peppered.scheme.hasPrefix("hmac-sha256:"))
        #expect(peppered.scheme != AccountKeyHasher(pepper: Array("other".utf8)).scheme)
    }

    @Test func canonicalFormRejectsAnythingButEightGroupsOfEightHexDigits() {
        #expect(
            AccountKeyHasher.canonicalAppleHash("5041a3e263c6694afb3d66336c85ce5bb6be5894efcc93f44d98c7fe4a548a68")
                == nil)
        #expect(
            AccountKeyHasher.canonicalAppleHash(
                "5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a6g") == nil)
    }
}
