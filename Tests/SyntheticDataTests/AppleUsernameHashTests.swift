import Testing

@testable import SyntheticData

struct AppleUsernameHashTests {
    @Test func hashesLikeApplesProgrammingGuideExample() {
        #expect(
            AppleUsernameHash.hash("userNameOnYourServer")
                == "5041a3e2-63c6694a-fb3d6633-6c85ce5b-b6be5894-efcc93f4-4d98c7fe-4a548a68")
    }

    @Test func sha256MatchesFips180TestVectors() {
        func hex(_ bytes: [UInt8]) -> String {
            bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined()
        }
        #expect(hex(AppleUsernameHash.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(AppleUsernameHash.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks: the padding spills into a second 64-byte block.
        #expect(
            hex(AppleUsernameHash.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func hashesUTF8BytesWithoutNormalisation() {
        // "é" precomposed and decomposed are different bytes, so different hashes.
        #expect(AppleUsernameHash.hash("caf\u{E9}") != AppleUsernameHash.hash("cafe\u{301}"))
        #expect(AppleUsernameHash.hash("zoë").count == 71)
    }
}
