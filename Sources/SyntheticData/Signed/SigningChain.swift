internal import Crypto
internal import Foundation

/// The generator's own certificate authority, shaped like Apple's (root → intermediate with OID
/// 1.2.840.113635.100.6.2.1 → leaf with OID 1.2.840.113635.100.6.11.1, P-256, ES256), plus the deliberately wrong
/// signers the planted failures need.
///
/// Every key and serial number is derived from the seed, so a seed always signs with the same keys; the ECDSA
/// signatures (over the certificates and the records) are randomised by swift-crypto, so certificate and JWS bytes
/// differ between runs while every payload does not. Validity is chosen around the data's first day (`start`).
struct SigningChain {
    /// One signer: a P-256 key and the `x5c` a JWS header names it by.
    struct Identity {
        /// What the signer is, as the manifest's `signer` names it.
        let name: String
        let key: P256.Signing.PrivateKey
        /// Standard base64 DER, leaf first.
        let x5c: [String]
        /// The leaf's validity, epoch milliseconds (whole seconds).
        let validFrom: Int64
        let validUntil: Int64
    }

    private static let day = AppleTime.millisecondsPerDay
    private static let year = 365 * day

    /// The root to trust (`test-root.der`).
    let rootDER: [UInt8]
    /// The leaf that signs almost everything: valid from 60 days before `start` to three years after.
    let current: Identity
    /// An older leaf of the same intermediate, valid until five days after `start` (so expired today): records it
    /// signed in those days verify, one it "signed" later is `expired-at-signed-date`.
    let retired: Identity
    /// A leaf of the trusted intermediate without the receipt-signing OID (`missing-apple-oid`).
    let withoutAppleOID: Identity
    /// A complete Apple-shaped chain (same names, same OIDs) up to a root nobody trusts (`untrusted-chain`).
    let impostor: Identity
    /// Xcode's StoreKit testing: one self-signed certificate (`missing-x5c`).
    let xcode: Identity

    /// When the retired leaf stops being valid.
    var retiredUntil: Int64 { retired.validUntil }

    /// Builds the chains for `seed`, with validity around `start` (epoch milliseconds of the data's first day).
    init(seed: UInt64, start: Int64) throws {
        var rng = SeededGenerator(seed: seed ^ 0x5349_474E_4544)  // "SIGNED": apart from the simulation's stream
        let day = Self.day
        let year = Self.year
        let rootKey = Self.key(&rng)
        let intermediateKey = Self.key(&rng)
        let rootName = CertificateDER.Name(
            commonName: "IAPAudit Synthetic Root CA - G3", unit: "Synthetic Certification Authority")
        let intermediateName = CertificateDER.Name(
            commonName: "IAPAudit Synthetic Worldwide Developer Relations CA - G6", unit: "G6")
        rootDER = try CertificateDER.certificate(
            serial: rng.next() >> 2 | 1, subject: rootName, issuer: rootName, key: rootKey.publicKey, signer: rootKey,
            from: start - 5 * year, until: start + 20 * year, role: .root)
        let intermediateDER = try CertificateDER.certificate(
            serial: rng.next() >> 2 | 1, subject: intermediateName, issuer: rootName, key: intermediateKey.publicKey,
            signer: rootKey, from: start - 3 * year, until: start + 10 * year, role: .intermediate(hasAppleOID: true))
        let tail = [intermediateDER, rootDER].map { Data($0).base64EncodedString() }

        func leaf(
            _ name: String, signer: P256.Signing.PrivateKey, issuer: CertificateDER.Name, tail: [String],
            from: Int64, until: Int64, hasAppleOID: Bool, rng: inout SeededGenerator
        ) throws -> Identity {
            let key = Self.key(&rng)
            let der = try CertificateDER.certificate(
                serial: rng.next() >> 2 | 1,
                subject: CertificateDER.Name(commonName: name, unit: "Synthetic Receipt Signing"), issuer: issuer,
                key: key.publicKey, signer: signer, from: from, until: until, role: .leaf(hasAppleOID: hasAppleOID))
            return Identity(
                name: name, key: key, x5c: [Data(der).base64EncodedString()] + tail, validFrom: from,
                validUntil: until)
        }
        let leafName = "Prod ECC Mac App Store and iTunes Store Receipt Signing"
        current = try leaf(
            leafName, signer: intermediateKey, issuer: intermediateName, tail: tail, from: start - 60 * day,
            until: start + 3 * year, hasAppleOID: true, rng: &rng)
        retired = try leaf(
            leafName + " (retired)", signer: intermediateKey, issuer: intermediateName, tail: tail,
            from: start - 2 * year, until: start + 5 * day, hasAppleOID: true, rng: &rng)
        withoutAppleOID = try leaf(
            "Prod ECC Web Server", signer: intermediateKey, issuer: intermediateName, tail: tail,
            from: start - 60 * day, until: start + 3 * year, hasAppleOID: false, rng: &rng)

        let impostorRootKey = Self.key(&rng)
        let impostorIntermediateKey = Self.key(&rng)
        let impostorRoot = try CertificateDER.certificate(
            serial: rng.next() >> 2 | 1, subject: rootName, issuer: rootName, key: impostorRootKey.publicKey,
            signer: impostorRootKey, from: start - 5 * year, until: start + 20 * year, role: .root)
        let impostorIntermediate = try CertificateDER.certificate(
            serial: rng.next() >> 2 | 1, subject: intermediateName, issuer: rootName,
            key: impostorIntermediateKey.publicKey, signer: impostorRootKey, from: start - 3 * year,
            until: start + 10 * year, role: .intermediate(hasAppleOID: true))
        let impostorLeaf = try leaf(
            leafName, signer: impostorIntermediateKey, issuer: intermediateName,
            tail: [impostorIntermediate, impostorRoot].map { Data($0).base64EncodedString() },
            from: start - 60 * day, until: start + 3 * year, hasAppleOID: true, rng: &rng)
        impostor = Identity(
            name: "impostor: " + leafName, key: impostorLeaf.key, x5c: impostorLeaf.x5c,
            validFrom: impostorLeaf.validFrom, validUntil: impostorLeaf.validUntil)

        let xcodeKey = Self.key(&rng)
        let xcodeName = CertificateDER.Name(commonName: "StoreKit Testing in Xcode", unit: "Xcode")
        let xcodeDER = try CertificateDER.certificate(
            serial: rng.next() >> 2 | 1, subject: xcodeName, issuer: xcodeName, key: xcodeKey.publicKey,
            signer: xcodeKey, from: start - 30 * day, until: start + year, role: .root)
        xcode = Identity(
            name: "StoreKit Testing in Xcode", key: xcodeKey, x5c: [Data(xcodeDER).base64EncodedString()],
            validFrom: start - 30 * day, validUntil: start + year)
    }

    /// A compact JWS of `payload`, signed with ES256 by `identity`'s key. `algorithm` is what the header claims;
    /// without `includesChain` the header has no `x5c`.
    func sign(
        _ payload: SignedJSON, by identity: Identity, algorithm: String = "ES256", includesChain: Bool = true
    ) throws -> String {
        var header: [(String, SignedJSON)] = [("alg", .string(algorithm))]
        if includesChain { header.append(("x5c", .array(identity.x5c.map { .string($0) }))) }
        let input = SignedJSON.base64URL(SignedJSON.object(header).bytes) + "." + SignedJSON.base64URL(payload.bytes)
        let signature = try identity.key.signature(for: Data(input.utf8)).rawRepresentation
        return input + "." + SignedJSON.base64URL(signature)
    }

    /// A P-256 key from 32 bytes of the stream (drawn again in the negligible case they are no valid scalar).
    private static func key(_ rng: inout SeededGenerator) -> P256.Signing.PrivateKey {
        while true {
            var bytes: [UInt8] = []
            for _ in 0..<4 {
                let word = rng.next()
                for shift in stride(from: 56, through: 0, by: -8) {
                    bytes.append(UInt8(truncatingIfNeeded: word >> shift))
                }
            }
            if let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes) { return key }
        }
    }
}
