internal import Crypto
internal import Foundation

/// X.509 v3 certificates written as DER by hand, just what an Apple-shaped chain needs: P-256 keys, ECDSA with
/// SHA-256, a subject and issuer name, validity, basic constraints, key usage and Apple's marker extensions.
///
/// Written here rather than with swift-certificates so the generator (and the pipeline that links it) does not pull
/// in `X509` for two dozen lines of DER; the verifier parses the result with swift-certificates, which is the check.
enum CertificateDER {
    /// What the certificate is for, which decides its extensions.
    enum Role {
        case root
        /// `hasAppleOID`: 1.2.840.113635.100.6.2.1, Apple's Worldwide Developer Relations marker.
        case intermediate(hasAppleOID: Bool)
        /// `hasAppleOID`: 1.2.840.113635.100.6.11.1, Apple's receipt-signing marker.
        case leaf(hasAppleOID: Bool)
    }

    /// A name of four attributes: country, organization, organizational unit, common name.
    struct Name {
        var commonName: String
        var unit: String
        var organization = "IAPAudit Synthetic Data"
        var country = "US"

        var der: [UInt8] {
            let attributes: [([UInt64], UInt8, String)] = [
                ([2, 5, 4, 6], 0x13, country), ([2, 5, 4, 10], 0x0C, organization), ([2, 5, 4, 11], 0x0C, unit),
                ([2, 5, 4, 3], 0x0C, commonName),
            ]
            return CertificateDER.sequence(
                attributes.flatMap { oid, tag, value in
                    CertificateDER.tagged(
                        0x31,
                        CertificateDER.sequence(
                            CertificateDER.objectIdentifier(oid) + CertificateDER.tagged(tag, Array(value.utf8))))
                })
        }
    }

    static let receiptSigningOID: [UInt64] = [1, 2, 840, 113_635, 100, 6, 11, 1]
    static let wwdrOID: [UInt64] = [1, 2, 840, 113_635, 100, 6, 2, 1]
    private static let ecdsaWithSHA256: [UInt64] = [1, 2, 840, 10045, 4, 3, 2]

    /// The DER of a certificate for `key`, named `subject`, signed by `signer` as `issuer`; validity in epoch
    /// milliseconds (X.509 keeps whole seconds).
    static func certificate(
        serial: UInt64, subject: Name, issuer: Name, key: P256.Signing.PublicKey, signer: P256.Signing.PrivateKey,
        from: Int64, until: Int64, role: Role
    ) throws -> [UInt8] {
        let algorithm = sequence(objectIdentifier(ecdsaWithSHA256))
        let tbs = sequence(
            tagged(0xA0, integer(2)) + integer(serial) + algorithm + issuer.der
                + sequence(time(from) + time(until)) + subject.der + Array(key.derRepresentation)
                + tagged(0xA3, sequence(extensions(role))))
        let signature = try signer.signature(for: Data(tbs)).derRepresentation
        return sequence(tbs + algorithm + tagged(0x03, [0] + Array(signature)))
    }

    private static func extensions(_ role: Role) -> [UInt8] {
        // BasicConstraints (2.5.29.19) and KeyUsage (2.5.29.15), critical; the marker, not critical, NULL valued.
        let isAuthority: [UInt8]
        let keyUsage: [UInt8]
        var marker: [UInt64]?
        switch role {
        case .root:
            isAuthority = sequence(boolean(true))
            keyUsage = tagged(0x03, [0x01, 0x06])  // keyCertSign, cRLSign
        case .intermediate(let hasAppleOID):
            isAuthority = sequence(boolean(true) + integer(0))
            keyUsage = tagged(0x03, [0x01, 0x06])
            if hasAppleOID { marker = wwdrOID }
        case .leaf(let hasAppleOID):
            isAuthority = sequence([])
            keyUsage = tagged(0x03, [0x07, 0x80])  // digitalSignature
            if hasAppleOID { marker = receiptSigningOID }
        }
        var bytes =
            sequence(objectIdentifier([2, 5, 29, 19]) + boolean(true) + tagged(0x04, isAuthority))
            + sequence(objectIdentifier([2, 5, 29, 15]) + boolean(true) + tagged(0x04, keyUsage))
        if let marker { bytes += sequence(objectIdentifier(marker) + tagged(0x04, [0x05, 0x00])) }
        return bytes
    }

    // MARK: DER

    static func sequence(_ content: [UInt8]) -> [UInt8] { tagged(0x30, content) }

    static func tagged(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var bytes = [tag]
        let count = content.count
        if count < 0x80 {
            bytes.append(UInt8(count))
        } else {
            var length: [UInt8] = []
            var rest = count
            while rest > 0 {
                length.insert(UInt8(rest & 0xFF), at: 0)
                rest >>= 8
            }
            bytes.append(0x80 | UInt8(length.count))
            bytes += length
        }
        return bytes + content
    }

    static func integer(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        repeat {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        } while rest > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tagged(0x02, bytes)
    }

    static func boolean(_ value: Bool) -> [UInt8] { [0x01, 0x01, value ? 0xFF : 0x00] }

    static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var chunk = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            bytes += chunk
        }
        return tagged(0x06, bytes)
    }

    /// UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5).
    static func time(_ milliseconds: Int64) -> [UInt8] {
        let fields = AppleTime.fields(milliseconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let rest =
            two(fields.month) + two(fields.day) + two(fields.hour) + two(fields.minute) + two(fields.second) + "Z"
        if fields.year < 2050 {
            return tagged(0x17, Array((two(fields.year % 100) + rest).utf8))
        }
        return tagged(0x18, Array((String(fields.year) + rest).utf8))
    }
}
