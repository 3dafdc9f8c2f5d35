import AppStoreFormats
import AppStoreSignatures
import Crypto
import Foundation
import SwiftASN1
import X509

/// A root, intermediate and leaf made here with swift-certificates, shaped like Apple's (or deliberately not), and a
/// signer of compact JWS with the leaf's key: the cases no real sample shows.
struct OwnChain {
    /// When a certificate is valid, in epoch seconds.
    struct Validity {
        var from: Int64 = 1_700_000_000  // 2023-11-14
        var until: Int64 = 1_900_000_000  // 2030-03-17
    }

    /// What to change from Apple's shape.
    struct Shape {
        var rootValidity = Validity()
        var intermediateValidity = Validity()
        var leafValidity = Validity()
        var intermediateIsCA = true
        var intermediateKeyUsage = KeyUsage(keyCertSign: true, cRLSign: true)
        var leafKeyUsage = KeyUsage(digitalSignature: true)
        var intermediateHasWWDROID = true
        var leafHasReceiptSigningOID = true
        /// An extension no verifier here knows, on the leaf: nil for none, else whether it is critical.
        var leafUnknownExtensionIsCritical: Bool?
        /// A P-384 leaf key, which ES256 cannot use.
        var leafKeyIsP384 = false
    }

    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let leafKey = P256.Signing.PrivateKey()
    let leafP384Key = P384.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate
    let leaf: Certificate

    static let wwdrOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    static let receiptSigningOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let appleNull: ArraySlice<UInt8> = [0x05, 0x00]

    init(_ shape: Shape = Shape(), rootName: String = "Own Root CA") throws {
        let rootName = try DistinguishedName { CommonName(rootName) }
        let intermediateName = try DistinguishedName { CommonName("Own Intermediate") }
        let leafName = try DistinguishedName { CommonName("Own Receipt Signing") }
        root = try Self.certificate(
            subject: rootName, issuer: rootName, key: .init(rootKey.publicKey), signer: rootKey,
            validity: shape.rootValidity,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            })
        var intermediateExtensions = try Certificate.Extensions {
            Critical(
                shape.intermediateIsCA
                    ? BasicConstraints.isCertificateAuthority(maxPathLength: 0) : .notCertificateAuthority)
            Critical(shape.intermediateKeyUsage)
        }
        if shape.intermediateHasWWDROID {
            try intermediateExtensions.append(.init(oid: Self.wwdrOID, critical: false, value: Self.appleNull))
        }
        intermediate = try Self.certificate(
            subject: intermediateName, issuer: rootName, key: .init(intermediateKey.publicKey), signer: rootKey,
            validity: shape.intermediateValidity, extensions: intermediateExtensions)
        var leafExtensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(shape.leafKeyUsage)
        }
        if shape.leafHasReceiptSigningOID {
            try leafExtensions.append(.init(oid: Self.receiptSigningOID, critical: false, value: Self.appleNull))
        }
        if let critical = shape.leafUnknownExtensionIsCritical {
            try leafExtensions.append(
                .init(oid: [1, 3, 6, 1, 4, 1, 99_999, 1], critical: critical, value: Self.appleNull))
        }
        leaf = try Self.certificate(
            subject: leafName, issuer: intermediateName,
            key: shape.leafKeyIsP384 ? .init(leafP384Key.publicKey) : .init(leafKey.publicKey), signer: intermediateKey,
            validity: shape.leafValidity, extensions: leafExtensions)
    }

    private static func certificate(
        subject: DistinguishedName, issuer: DistinguishedName, key: Certificate.PublicKey,
        signer: P256.Signing.PrivateKey, validity: Validity, extensions: Certificate.Extensions
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key,
            notValidBefore: Date(timeIntervalSince1970: TimeInterval(validity.from)),
            notValidAfter: Date(timeIntervalSince1970: TimeInterval(validity.until)), issuer: issuer,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: .init(signer))
    }

    static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// `x5c`: leaf, intermediate, root.
    func x5c() throws -> [String] {
        try [leaf, intermediate, root].map { Data(try Self.der($0)).base64EncodedString() }
    }

    /// A trust store holding this chain's root alone.
    func trustStore() throws -> TrustStore {
        var store = TrustStore.empty
        try store.addRoots(from: try Self.der(root), source: "own root")
        return store
    }

    /// A compact JWS of `payload` signed with ES256 by the leaf's key.
    func sign(payload: String, algorithm: String = "ES256") throws -> CompactJWS {
        let chain = try x5c().map { "\"\($0)\"" }.joined(separator: ",")
        let header = #"{"alg":"\#(algorithm)","x5c":[\#(chain)]}"#
        let input = SignedSamples.base64URL(header.utf8) + "." + SignedSamples.base64URL(payload.utf8)
        let signature = try leafKey.signature(for: Data(input.utf8)).rawRepresentation
        return try CompactJWS(input + "." + SignedSamples.base64URL(signature))
    }
}
