/// What offline verification concluded about one signed record (docs/decisions.md, "Signed data"): verified, or the
/// one reason it is not.
///
/// The raw values are stored beside every signed record and read by the `forged-signature` rule and reports, so they
/// never change. When several reasons apply, the first check that fails names the outcome; the order is
/// `SignatureVerifier.verify(_:)`'s (docs/decisions.md, "Signed data").
package enum VerificationOutcome: String, Sendable, Hashable, CaseIterable {
    /// Apple's chain, valid when the payload says it was signed, and a signature that matches.
    case verified
    /// The header's `alg` is not `ES256`: `none`, `HS256` and the like are never Apple's.
    case unsupportedAlgorithm = "unsupported-algorithm"
    /// No `x5c`, or fewer than three certificates: Xcode's and local test signatures carry one.
    case missingX5C = "missing-x5c"
    /// The chain does not lead to a trusted root: a certificate that does not parse, a signature between
    /// certificates that does not verify, an intermediate that is no CA, or more than three certificates.
    case untrustedChain = "untrusted-chain"
    /// A trusted chain whose leaf lacks OID 1.2.840.113635.100.6.11.1 or whose intermediate lacks
    /// 1.2.840.113635.100.6.2.1: an Apple certificate made for something else.
    case missingAppleOID = "missing-apple-oid"
    /// The ES256 signature over `header.payload` does not match the leaf's key: the record was changed or forged.
    case badSignature = "bad-signature"
    /// Some certificate of the chain was not valid at the instant Apple documents as the payload's signing date
    /// (`signedDate`; an app transaction's `receiptCreationDate`).
    case expiredAtSignedDate = "expired-at-signed-date"
    /// A trusted chain and a matching signature over a payload that carries no signing date: the chain cannot be
    /// judged at the signing instant. Not verified (never a purchase), and no evidence of forgery either.
    case noSigningDate = "no-signing-date"

    /// Whether the record verified.
    package var isVerified: Bool { self == .verified }
}
