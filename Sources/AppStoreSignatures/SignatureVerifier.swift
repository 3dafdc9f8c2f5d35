package import AppStoreFormats
package import Crypto
internal import Synchronization

/// Verifies Apple's signed data offline (docs/decisions.md, "Signed data"), judging each certificate at the payload's
/// `signedDate`: an archive audited years later must not fail every genuine record whose leaf has expired since.
///
/// A chain is judged once and cached by its `x5c` text, so the work per record is one ES256 signature check and one
/// date comparison. One verifier may be shared by any number of threads: the cache is behind a lock held only for
/// a lookup or an insert, never while a signature is checked.
package final class SignatureVerifier: Sendable {
    /// How many chains are remembered. Apple signs with a handful of leaves at a time; a file of forgeries, each
    /// with a chain of its own, empties the cache when it fills rather than growing it without bound.
    package static let cacheCapacity = 1024

    /// Counts of chain checks done and spared, for tests and benchmarks.
    package struct Statistics: Sendable, Equatable {
        /// Chains judged (certificates parsed, signatures between them checked).
        package var chainChecks = 0
        /// Records whose chain was already judged.
        package var cacheHits = 0

        /// Counts as given.
        package init(chainChecks: Int = 0, cacheHits: Int = 0) {
            self.chainChecks = chainChecks
            self.cacheHits = cacheHits
        }
    }

    private struct Cache {
        var verdicts: [[String]: ChainVerdict] = [:]
        /// The chains judged or found last, most recent first, looked at before `verdicts`: the JWS one signer
        /// signs share one chain array (`CompactJWS` keeps it with the decoded header), so `==` holds at once by
        /// the array's identity, where hashing the chain's 4 kB for the dictionary cost 1–2% of a signed ingest.
        var recent: [(chain: [String], verdict: ChainVerdict)] = []
        var statistics = Statistics()

        static let recentCapacity = 4

        mutating func remember(_ chain: [String], _ verdict: ChainVerdict) {
            if recent.count >= Self.recentCapacity { recent.removeLast() }
            recent.insert((chain, verdict), at: 0)
        }
    }

    /// The roots a chain must end in.
    package let trustStore: TrustStore
    private let cache = Mutex(Cache())

    /// A verifier that trusts the roots of `trustStore` (Apple Root CA - G3 by default).
    package init(trustStore: TrustStore = .apple) {
        self.trustStore = trustStore
    }

    /// The outcome for `jws`, from the first check that fails, in this order: the algorithm
    /// (`unsupported-algorithm`), the chain's length (`missing-x5c`), its path to a trusted root (`untrusted-chain`),
    /// Apple's OIDs (`missing-apple-oid`), the signature (`bad-signature`), and last the certificates' validity at
    /// the signing date (`expired-at-signed-date`, or `no-signing-date` when the payload has none): the date is the
    /// payload's word, worth nothing until the signature over it holds.
    package func verify(_ jws: CompactJWS) -> VerificationOutcome {
        verify(jws, signingInputDigest: jws.signingInputDigest())
    }

    /// The outcome for `jws`, whose signing input's SHA-256 (what ES256 signs) the caller has computed already, e.g.
    /// to find the JWS among those it verified before.
    package func verify(_ jws: CompactJWS, signingInputDigest: SHA256Digest) -> VerificationOutcome {
        guard jws.algorithm == "ES256" else { return .unsupportedAlgorithm }
        let chain: TrustedChain
        switch verdict(for: jws.certificateChain) {
        case .rejected(let outcome): return outcome
        case .trusted(let trusted): chain = trusted
        }
        guard let key = chain.leafKey?.key, jws.signature.count == 64,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
            key.isValidSignature(signature, for: signingInputDigest)
        else { return .badSignature }
        guard let signedDate = jws.signedDate else { return .noSigningDate }
        guard chain.isValid(at: signedDate) else { return .expiredAtSignedDate }
        return .verified
    }

    /// The outcome for a certificate chain alone (`x5c`: leaf, intermediate, root; standard base64 DER) at
    /// `instant`: `verified` when a record it signed at that instant would verify given a matching signature.
    package func verifyChain(_ x5c: [String]?, at instant: Timestamp) -> VerificationOutcome {
        switch verdict(for: x5c) {
        case .rejected(let outcome): return outcome
        case .trusted(let chain): return chain.isValid(at: instant) ? .verified : .expiredAtSignedDate
        }
    }

    /// The counts so far.
    package var statistics: Statistics { cache.withLock { $0.statistics } }

    /// The cached verdict for `x5c`, judging it first when it is new. Two threads meeting a new chain at once may
    /// both judge it; the verdicts are equal, and the lock is not held through the work.
    private func verdict(for x5c: [String]?) -> ChainVerdict {
        guard let x5c else { return .rejected(.missingX5C) }
        let cached = cache.withLock { cache -> ChainVerdict? in
            if let verdict = cache.recent.first(where: { $0.chain == x5c })?.verdict {
                cache.statistics.cacheHits += 1
                return verdict
            }
            guard let verdict = cache.verdicts[x5c] else { return nil }
            cache.statistics.cacheHits += 1
            cache.remember(x5c, verdict)
            return verdict
        }
        if let cached { return cached }
        let verdict = ChainVerdict(x5c: x5c, trustStore: trustStore)
        cache.withLock { cache in
            if cache.verdicts.count >= Self.cacheCapacity { cache.verdicts.removeAll(keepingCapacity: true) }
            cache.verdicts[x5c] = verdict
            cache.remember(x5c, verdict)
            cache.statistics.chainChecks += 1
        }
        return verdict
    }
}

extension CompactJWS {
    /// The SHA-256 of the signing input, what ES256 signs, hashed where the input lies.
    package func signingInputDigest() -> SHA256Digest {
        withSigningInput { input in
            var hash = SHA256()
            hash.update(bufferPointer: input)
            return hash.finalize()
        }
    }
}
