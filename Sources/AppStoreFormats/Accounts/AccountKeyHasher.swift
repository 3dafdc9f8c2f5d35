internal import Crypto

/// Turns application usernames into the keys IAPAudit stores, exactly as Apple hashes `applicationUsername`.
///
/// Apple's In-App Purchase Programming Guide (Listing 3-2): SHA-256 over the UTF-8 bytes of the name, no
/// normalisation, lowercase hex with a `-` after every 4 bytes (71 characters). With a secret pepper the stored key is
/// HMAC-SHA256(pepper, Apple-format hash), written the same way, so a leaked table cannot be reversed with a list of
/// candidate e-mail addresses.
package struct AccountKeyHasher: Sendable {
    private let pepper: [UInt8]?

    /// A hasher with an optional pepper (nil or empty: plain Apple hashes).
    package init(pepper: [UInt8]?) {
        self.pepper = (pepper?.isEmpty ?? true) ? nil : pepper
    }

    /// Apple's `applicationUsername` hash of `username`.
    package static func appleHash(of username: String) -> String {
        format(Array(SHA256.hash(data: Array(username.utf8))))
    }

    /// The key stored for a raw username.
    package func key(forUsername username: String) -> String {
        key(forAppleHash: Self.appleHash(of: username))
    }

    /// The key stored for an Apple-format hash that was already validated and lowercased.
    package func key(forAppleHash hash: String) -> String {
        guard let pepper else { return hash }
        let mac = HMAC<SHA256>.authenticationCode(for: Array(hash.utf8), using: SymmetricKey(data: pepper))
        return Self.format(Array(mac))
    }

    /// The Apple-format hash in canonical (lowercase) form, or nil when `text` is not one.
    package static func canonicalAppleHash(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.count == 71 else { return nil }
        var canonical: [UInt8] = []
        canonical.reserveCapacity(71)
        for (index, byte) in bytes.enumerated() {
            if index % 9 == 8 {
                guard byte == UInt8(ascii: "-") else { return nil }
                canonical.append(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): canonical.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): canonical.append(byte + 0x20)
            default: return nil
            }
        }
        return String(decoding: canonical, as: UTF8.self)
    }

    /// Names the key scheme, so a database never mixes keys made with and without (or with another) pepper.
    package var scheme: String {
        guard let pepper else { return "apple-sha256" }
        // A fingerprint identifies the pepper without revealing it.
        let fingerprint = LowercaseHex.string(SHA256.hash(data: Array("iap-audit pepper fingerprint".utf8) + pepper))
        return "hmac-sha256:" + fingerprint.prefix(16)
    }

    static func format(_ digest: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(71)
        for (index, byte) in digest.enumerated() {
            if index > 0 && index % 4 == 0 { text.append(UInt8(ascii: "-")) }
            LowercaseHex.append(byte, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

}

/// SHA-256 of arbitrary bytes, for content hashes (files, receipt data).
package enum ContentHash {
    /// The 32-byte SHA-256 digest of `bytes`.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ Array(SHA256.hash(data: $0)) }) { return digest }
        return Array(SHA256.hash(data: Array(bytes)))
    }

    /// An incremental SHA-256 for streaming a whole file.
    package struct Stream {
        private var hasher = SHA256()

        /// A fresh hash.
        package init() {}

        /// Adds bytes.
        package mutating func update(_ bytes: UnsafeRawBufferPointer) {
            hasher.update(bufferPointer: bytes)
        }

        /// The digest of everything added.
        package func finalize() -> [UInt8] {
            Array(hasher.finalize())
        }
    }
}
