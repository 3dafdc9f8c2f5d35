import AppStoreFormats
import AppStoreSignatures
import Foundation
import TestSupport
import Testing

/// The signed samples of `Tests/Fixtures/corpus/receipts/` (`jws/`, `certs/`), read the way the tests need them.
enum SignedSamples {
    struct ShapeError: Error, CustomStringConvertible {
        var description: String
    }

    /// A sample's compact JWS text: the file itself, or the `signedPayload` of a V2 notification body.
    static func text(_ name: String) throws -> String {
        let text = String(decoding: try TestCorpus.bytes("receipts/jws/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else { return text }
        let body = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        guard let signed = body?["signedPayload"] as? String else { throw ShapeError(description: "\(name)") }
        return signed
    }

    /// A sample, parsed.
    static func jws(_ name: String) throws -> CompactJWS {
        try CompactJWS(try text(name))
    }

    /// Apple's test root (`certs/apple-lib-testCA.der`), which signs the `apple-mock-*` samples.
    static func appleTestCA() throws -> [UInt8] {
        try TestCorpus.bytes("receipts/certs/apple-lib-testCA.der")
    }

    /// Apple Root CA - G3 plus Apple's test root.
    static func storeWithTestCA() throws -> TrustStore {
        var store = TrustStore.apple
        try store.addRoots(from: try appleTestCA(), source: "apple-lib-testCA.der")
        return store
    }

    /// `certs/apple-x509-chain-vectors.json`: Apple's real chain, a test chain and the negative vectors.
    struct ChainVectors {
        var effectiveDate: Timestamp
        var realLeaf: String
        var realIntermediate: String
        var realRoot: String
        var testLeaf: String
        var testIntermediate: String
        var testRoot: String
        var intermediateMissingWWDROID: String
        var leafForIntermediateMissingWWDROID: String
        var leafMissingReceiptSigningOID: String
    }

    static func chainVectors() throws -> ChainVectors {
        let data = Data(try TestCorpus.bytes("receipts/certs/apple-x509-chain-vectors.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let seconds = json["effective_date_unix_seconds"] as? Int,
            let real = json["real_apple_chain"] as? [String: String],
            let test = json["test_chain"] as? [String: String],
            let negative = json["negative_vectors"] as? [String: String]
        else { throw ShapeError(description: "apple-x509-chain-vectors.json") }
        func value(_ table: [String: String], _ key: String) throws -> String {
            guard let value = table[key] else { throw ShapeError(description: "no \(key)") }
            return value
        }
        return ChainVectors(
            effectiveDate: Timestamp(millisecondsSince1970: Int64(seconds) * 1000),
            realLeaf: try value(real, "leaf"), realIntermediate: try value(real, "intermediate"),
            realRoot: try value(real, "root_apple_root_ca_g3"),
            testLeaf: try value(test, "leaf"), testIntermediate: try value(test, "intermediate"),
            testRoot: try value(test, "root"),
            intermediateMissingWWDROID: try value(negative, "intermediate_missing_wwdr_oid"),
            leafForIntermediateMissingWWDROID: try value(negative, "leaf_for_intermediate_missing_wwdr_oid"),
            leafMissingReceiptSigningOID: try value(negative, "leaf_missing_receipt_signing_oid"))
    }

    /// Unpadded base64url of `bytes`.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Bytes of unpadded base64url text.
    static func bytes(base64URL text: some StringProtocol) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(Array(text.utf8)) else { throw ShapeError(description: "not base64url") }
        return bytes
    }

    /// `text` with its header or payload rewritten by `edit` (the signature is kept as it was).
    static func rewriting(
        _ text: String, header: (inout [UInt8]) -> Void = { _ in }, payload: (inout [UInt8]) -> Void = { _ in }
    ) throws -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var headerBytes = try bytes(base64URL: parts[0])
        var payloadBytes = try bytes(base64URL: parts[1])
        header(&headerBytes)
        payload(&payloadBytes)
        return base64URL(headerBytes) + "." + base64URL(payloadBytes) + "." + parts[2]
    }

    /// `bytes` with the first occurrence of `old` replaced by `new`.
    static func replacing(_ old: String, with new: String, in bytes: inout [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let range = text.range(of: old) else { return }
        bytes = Array(text.replacingCharacters(in: range, with: new).utf8)
    }
}
