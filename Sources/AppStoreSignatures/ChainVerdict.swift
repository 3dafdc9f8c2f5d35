internal import AppStoreFormats
internal import Crypto
internal import Foundation
internal import SwiftASN1
internal import X509

/// What a certificate chain (`x5c`) is worth, whatever the record it signs: judged once per chain and cached.
///
/// Everything here is independent of time except the validity window, which is kept as an interval so that each
/// record's `signedDate` is a comparison, not a new chain check.
enum ChainVerdict: Sendable {
    /// The chain leads to a trusted root, with Apple's OIDs: records it signs verify when their signature matches
    /// `leafKey` and their `signedDate` falls within `validity`.
    case trusted(TrustedChain)
    /// The chain fails whatever it signs: `missing-x5c`, `untrusted-chain` or `missing-apple-oid`.
    case rejected(VerificationOutcome)
}

/// A chain that leads to a trusted root, reduced to what each record needs.
struct TrustedChain: Sendable {
    /// The leaf's key, when it is a P-256 key (ES256 needs one; any other leaf key fails every signature).
    var leafKey: LeafKey?
    /// When every certificate (leaf, intermediate and the trusted root) is valid: the latest `notBefore` to the
    /// earliest `notAfter`, inclusive (RFC 5280 §4.1.2.5). Nil when the windows do not overlap.
    var validity: ClosedRange<Timestamp>?

    /// Whether every certificate of the chain was valid at `instant`.
    func isValid(at instant: Timestamp) -> Bool { validity?.contains(instant) ?? false }
}

/// A leaf's P-256 key, shared by the threads that verify records with it.
///
/// swift-crypto 3 does not mark the key `Sendable`; 4 does, with the same implementation: an immutable value over a
/// BoringSSL key that verification only reads. Checked by hand here rather than moving the whole package to
/// swift-crypto 4 for one conformance.
struct LeafKey: @unchecked Sendable {
    let key: P256.Signing.PublicKey
}

extension ChainVerdict {
    /// Apple's marker of the App Store's receipt-signing leaf.
    static let receiptSigningOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Apple's marker of the Worldwide Developer Relations intermediate.
    static let wwdrIntermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    /// Critical extensions this check enforces; a certificate with any other critical extension is refused, as
    /// RFC 5280 §4.2 requires of a verifier that does not know it.
    static let understoodCriticalExtensions: Set<ASN1ObjectIdentifier> = [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage,
    ]

    /// Judges `x5c` (leaf, intermediate, root; standard base64 DER) against `trustStore`, in this order: the count
    /// (`missing-x5c` when fewer than three), then the path to a trusted root (`untrusted-chain`), then Apple's
    /// OIDs (`missing-apple-oid`). OIDs are looked at only on a trusted chain: anyone can write them into a
    /// certificate of their own.
    init(x5c: [String]?, trustStore: TrustStore) {
        guard let x5c, x5c.count >= 3 else {
            self = .rejected(.missingX5C)
            return
        }
        guard x5c.count == 3, let leafDER = Self.der(x5c[0]), let intermediateDER = Self.der(x5c[1]),
            let leaf = try? Certificate(derEncoded: leafDER),
            let intermediate = try? Certificate(derEncoded: intermediateDER)
        else {
            self = .rejected(.untrustedChain)
            return
        }
        guard let root = Self.trustedIssuer(of: intermediate, hint: Self.der(x5c[2]), in: trustStore),
            Self.isSigned(leaf, by: intermediate), Self.isAuthority(intermediate), Self.mayUseKey(leaf),
            !Self.hasUnknownCriticalExtension(leaf), !Self.hasUnknownCriticalExtension(intermediate)
        else {
            self = .rejected(.untrustedChain)
            return
        }
        guard leaf.extensions[oid: Self.receiptSigningOID] != nil,
            intermediate.extensions[oid: Self.wwdrIntermediateOID] != nil
        else {
            self = .rejected(.missingAppleOID)
            return
        }
        let chain = [leaf, intermediate, root]
        let notBefore = chain.map { Self.timestamp($0.notValidBefore) }.max()
        let notAfter = chain.map { Self.timestamp($0.notValidAfter) }.min()
        var validity: ClosedRange<Timestamp>?
        if let notBefore, let notAfter, notBefore <= notAfter { validity = notBefore...notAfter }
        self = .trusted(
            TrustedChain(leafKey: P256.Signing.PublicKey(leaf.publicKey).map(LeafKey.init), validity: validity))
    }

    /// The trusted root that issued `intermediate`: `x5c[2]` when it is one of the store's roots byte for byte, else
    /// any root of the store whose subject is the intermediate's issuer and whose key verifies its signature.
    static func trustedIssuer(
        of intermediate: Certificate, hint: [UInt8]?, in trustStore: TrustStore
    ) -> Certificate? {
        var candidates = trustStore.roots
        if let hint, let index = candidates.firstIndex(where: { $0.der == hint }) { candidates.swapAt(0, index) }
        return candidates.first { isSigned(intermediate, by: $0.certificate) }?.certificate
    }

    /// Whether `issuer` names and signed `certificate`.
    private static func isSigned(_ certificate: Certificate, by issuer: Certificate) -> Bool {
        certificate.issuer == issuer.subject
            && issuer.publicKey.isValidSignature(certificate.signature, for: certificate)
    }

    /// Whether `intermediate` may issue certificates: a CA by its basic constraints, and `keyCertSign` when it limits
    /// its key's usage.
    private static func isAuthority(_ intermediate: Certificate) -> Bool {
        guard case .isCertificateAuthority = try? intermediate.extensions.basicConstraints else { return false }
        guard let usage = try? intermediate.extensions.keyUsage else {
            return intermediate.extensions[oid: .X509ExtensionID.keyUsage] == nil
        }
        return usage.keyCertSign
    }

    /// Whether the leaf's key may sign data: `digitalSignature` when it limits its key's usage.
    private static func mayUseKey(_ leaf: Certificate) -> Bool {
        guard let usage = try? leaf.extensions.keyUsage else {
            return leaf.extensions[oid: .X509ExtensionID.keyUsage] == nil
        }
        return usage.digitalSignature
    }

    private static func hasUnknownCriticalExtension(_ certificate: Certificate) -> Bool {
        certificate.extensions.contains { $0.critical && !understoodCriticalExtensions.contains($0.oid) }
    }

    /// The DER bytes of a standard base64 certificate, or nil.
    static func der(_ base64: String) -> [UInt8]? {
        Data(base64Encoded: base64).map { Array($0) }
    }

    /// A certificate's instant (whole seconds) as a `Timestamp`.
    private static func timestamp(_ date: Date) -> Timestamp {
        Timestamp(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
    }
}
