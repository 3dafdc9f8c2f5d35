internal import Crypto

/// Apple's `applicationUsername` hash (In-App Purchase Programming Guide, Listing 3-2): SHA-256 of the name's UTF-8
/// bytes, lowercase hex with a `-` after every 4 bytes, 71 characters.
///
/// Written here rather than borrowed from `AccountKeyHasher`, so that the generator's expected keys are computed
/// independently of the code under test; only the digest itself comes from swift-crypto.
enum AppleUsernameHash {
    /// The 71-character hash of `username`.
    static func hash(_ username: String) -> String {
        let digest = sha256(Array(username.utf8))
        // Its own digits, not AppStoreFormats' LowercaseHex, which the code under test writes with.
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(71)
        for (index, byte) in digest.enumerated() {
            if index > 0 && index % 4 == 0 { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// The SHA-256 digest of `message`.
    static func sha256(_ message: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: message))
    }
}
