internal import AppStoreFormats
internal import AppStoreSignatures
internal import Crypto
internal import Synchronization

/// Each distinct JWS of a run verified once: the same bytes reach a run in several envelopes, notifications and
/// history pages, and an ES256 check (about 66 µs) is the costliest step of signed ingest.
///
/// A JWS's outcome depends on nothing but its bytes and the trust store (the algorithm and chain are in its header,
/// the `signedDate` in its payload), so a repeat is given the outcome its first copy got. A repeat is one with the
/// same signature bytes and the same SHA-256 of its signing input: the very digest ES256 signs, which verification
/// needs anyway, so finding repeats costs no hashing of its own. Never the signature alone: a forgery can carry a
/// genuine signature over other bytes.
/// Shared by the threads of a run's files; the lock is held only for a lookup or an insert, so two threads meeting a
/// new JWS at once may both check it (and get the same outcome).
final class VerifiedSignatures: Sendable {
    /// Outcomes remembered at most: about 12 MiB. A run of more distinct JWS starts over when it fills, which costs
    /// only checks, never a wrong outcome.
    static let capacity = 1 << 16

    /// A signing input's digest and the signature over it.
    private struct Key: Hashable, Sendable {
        var digest: (UInt64, UInt64, UInt64, UInt64)
        var signature: [UInt8]

        init(_ digest: SHA256Digest, signature: [UInt8]) {
            self.digest = digest.withUnsafeBytes { bytes in
                (
                    bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                )
            }
            self.signature = signature
        }

        static func == (left: Key, right: Key) -> Bool {
            left.digest == right.digest && left.signature == right.signature
        }

        /// The digest alone: SHA-256 spreads keys as well as any hash, and the signature's 64 bytes, combined one
        /// at a time by `[UInt8]`'s hashing, cost more than the rest of a lookup. Equality still compares both.
        func hash(into hasher: inout Hasher) {
            hasher.combine(digest.0)
            hasher.combine(digest.1)
            hasher.combine(digest.2)
            hasher.combine(digest.3)
        }
    }

    let verifier: SignatureVerifier
    private let outcomes = Mutex([Key: VerificationOutcome]())

    init(verifier: SignatureVerifier) {
        self.verifier = verifier
    }

    /// `jws`'s outcome: the verifier's, or the one an identical JWS got before.
    func outcome(of jws: CompactJWS) -> VerificationOutcome {
        let digest = jws.signingInputDigest()
        let key = Key(digest, signature: jws.signature)
        if let known = outcomes.withLock({ $0[key] }) { return known }
        let outcome = verifier.verify(jws, signingInputDigest: digest)
        outcomes.withLock { outcomes in
            if outcomes.count >= Self.capacity { outcomes.removeAll(keepingCapacity: true) }
            outcomes[key] = outcome
        }
        return outcome
    }
}
