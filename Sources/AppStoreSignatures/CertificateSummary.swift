internal import AppStoreFormats
internal import Crypto
internal import Foundation
internal import SwiftASN1
internal import X509

/// One certificate as a reader of evidence sees it: who it names, who issued it, when it is valid, and the SHA-256 of
/// its DER (its fingerprint). For an evidence bundle's account of each chain and of the roots it was judged against.
package struct CertificateSummary: Sendable, Equatable {
    /// The subject and issuer, RFC 4514 text.
    package var subject: String
    package var issuer: String
    /// The validity, ISO 8601 UTC to the second.
    package var notValidBefore: String
    package var notValidAfter: String
    /// Lowercase hex SHA-256 of the DER.
    package var sha256: String
    /// The DER itself, for a copy a receiver can open with any X.509 tool.
    package var der: [UInt8]

    init(_ certificate: Certificate, der: [UInt8]) {
        subject = String(describing: certificate.subject)
        issuer = String(describing: certificate.issuer)
        notValidBefore = Self.text(certificate.notValidBefore)
        notValidAfter = Self.text(certificate.notValidAfter)
        sha256 = LowercaseHex.string(SHA256.hash(data: der))
        self.der = der
    }

    /// The certificates of `x5c` (standard base64 DER, leaf first) that parse, in order; nil for one that does not.
    package static func chain(_ x5c: [String]) -> [CertificateSummary?] {
        x5c.map { text in
            guard let der = ChainVerdict.der(text), let certificate = try? Certificate(derEncoded: der) else {
                return nil
            }
            return CertificateSummary(certificate, der: der)
        }
    }

    private static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

extension TrustStore {
    /// Every root of the store, in the order added (Apple Root CA - G3 first in a store built from `.apple`).
    package var rootSummaries: [CertificateSummary] {
        roots.map { CertificateSummary($0.certificate, der: $0.der) }
    }

    /// The root of this store that issued `x5c`'s intermediate (the one a chain is judged through), or nil when none
    /// did. Says which root a verified record was trusted through; the outcome itself is `SignatureVerifier`'s.
    package func issuingRoot(of x5c: [String]) -> CertificateSummary? {
        guard x5c.count >= 2, let der = ChainVerdict.der(x5c[1]),
            let intermediate = try? Certificate(derEncoded: der),
            let root = ChainVerdict.trustedIssuer(
                of: intermediate, hint: x5c.count > 2 ? ChainVerdict.der(x5c[2]) : nil, in: self),
            let entry = roots.first(where: { $0.certificate == root })
        else { return nil }
        return CertificateSummary(root, der: entry.der)
    }
}
