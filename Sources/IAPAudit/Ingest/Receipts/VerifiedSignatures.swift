internal import AppStoreFormats
internal import AppStoreSignatures
internal import Crypto
internal import Synchronization

/// Each distinct JWS of a run verified once: the same bytes reach a run in several envelopes, notifications and
/// history pages, and an ES256 check (about 66 µs) is the costliest step of signed ingest.
///
/// A JWS's outcome depends on nothing but its bytes and the trust store (the algorithm and chain are in its header,
/// the `signedDate` in its payload), so a repeat is given the outcome its first copy got. Repeats are found by the
/// SHA-256 of what the outcome depends on (signing input, a dot, signature: the one dot a signing input holds tells
/// the two apart), never by a shorter key, so a forgery that keeps a genuine signature is not mistaken for the copy.
/// Shared by the threads of a run's files; the lock is held only for a lookup or an insert, so two threads meeting a
/// new JWS at once may both check it (and get the same outcome).
final class VerifiedSignatures: Sendable {
    /// Outcomes remembered at most: about 8 MiB. A run of more distinct JWS starts over when it fills, which costs
    /// only checks, never a wrong outcome.
    static let capacity = 1 << 17

    /// A SHA-256 digest as a plain value (swift-crypto's digest type is not `Sendable`).
    private struct Key: Hashable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64)

        init(_ digest: SHA256Digest) {
            words = digest.withUnsafeBytes { bytes in
                (
                    bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                    bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
                )
            }
        }

        static func == (left: Key, right: Key) -> Bool { left.words == right.words }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    let verifier: SignatureVerifier
    private let outcomes = Mutex([Key: VerificationOutcome]())

    init(verifier: SignatureVerifier) {
        self.verifier = verifier
    }

    /// `jws`'s outcome: the verifier's, or the one an identical JWS got before.
    func outcome(of jws: CompactJWS) -> VerificationOutcome {
        var hasher = SHA256()
        hasher.update(data: jws.signingInput)
        hasher.update(data: [UInt8(ascii: ".")])
        hasher.update(data: jws.signature)
        let key = Key(hasher.finalize())
        if let known = outcomes.withLock({ $0[key] }) { return known }
        let outcome = verifier.verify(jws)
        outcomes.withLock { outcomes in
            if outcomes.count >= Self.capacity { outcomes.removeAll(keepingCapacity: true) }
            outcomes[key] = outcome
        }
        return outcome
    }
}
