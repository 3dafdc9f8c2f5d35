internal import Foundation
internal import SwiftASN1
internal import X509

/// The root certificates a signed record's chain may end in: Apple Root CA - G3, built in, plus the roots a user adds
/// (`--trusted-root FILE`, for Apple's test CA or a generator's own chain).
///
/// A chain is trusted only through a root held here: the root a JWS carries in `x5c[2]` is never trusted for being
/// there.
package struct TrustStore: Sendable {
    /// One trusted root, with its DER for the byte-for-byte match of `x5c[2]`.
    struct Root: Sendable {
        var certificate: Certificate
        var der: [UInt8]
    }

    /// The roots, each once (by DER), in the order added.
    private(set) var roots: [Root]

    /// Apple Root CA - G3 alone: what verifies everything the App Store signs.
    package static let apple: TrustStore = {
        var store = TrustStore.empty
        // The built-in bytes are a constant checked by a test; they cannot fail to parse.
        try? store.addRoots(from: AppleRootCertificates.appleRootCAG3, source: "built-in Apple Root CA - G3")
        return store
    }()

    /// No root at all: nothing verifies. Tests build from it to show that a root is needed.
    package static let empty = TrustStore(roots: [])

    private init(roots: [Root]) {
        self.roots = roots
    }

    /// How many roots the store holds.
    package var count: Int { roots.count }

    /// The subject of each root (RFC 4514 text), for logs and `config check`.
    package var subjects: [String] { roots.map { String(describing: $0.certificate.subject) } }

    /// Adds the certificates in `bytes`: one DER certificate, or PEM text holding one or more `CERTIFICATE` blocks.
    /// `source` names the bytes in an error (a path, or "IAP_AUDIT_TRUSTED_ROOTS").
    package mutating func addRoots(from bytes: [UInt8], source: String) throws(AppStoreSignaturesError) {
        for der in try Self.certificateDER(in: bytes, source: source) {
            let certificate: Certificate
            do {
                certificate = try Certificate(derEncoded: der)
            } catch {
                throw AppStoreSignaturesError(source: source, reason: "not an X.509 certificate (\(error))")
            }
            if !roots.contains(where: { $0.der == der }) { roots.append(Root(certificate: certificate, der: der)) }
        }
    }

    /// Adds the certificates in the file at `path` (DER or PEM, see `addRoots(from:source:)`).
    package mutating func addRoots(contentsOfFile path: String) throws(AppStoreSignaturesError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw AppStoreSignaturesError(source: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        try addRoots(from: Array(data), source: path)
    }

    /// The DER of each certificate in DER or PEM bytes.
    private static func certificateDER(in bytes: [UInt8], source: String) throws(AppStoreSignaturesError) -> [[UInt8]] {
        let pemMarker = Array("-----BEGIN".utf8)
        guard let text = String(validating: bytes, as: UTF8.self),
            bytes.indices.contains(where: { bytes[$0...].starts(with: pemMarker) })
        else { return [bytes] }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw AppStoreSignaturesError(source: source, reason: "PEM that cannot be read (\(error))")
        }
        let certificates = documents.filter { $0.discriminator == "CERTIFICATE" }.map(\.derBytes)
        guard !certificates.isEmpty else {
            throw AppStoreSignaturesError(source: source, reason: "PEM without a CERTIFICATE block")
        }
        return certificates
    }
}
