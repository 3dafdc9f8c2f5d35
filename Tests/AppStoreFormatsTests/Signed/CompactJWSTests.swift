import Foundation
import TestSupport
import Testing

@testable import AppStoreFormats

/// What `CompactJWS` makes of real signed samples and of text that is not a JWS.
struct CompactJWSTests {
    /// A sample's compact JWS text: the file itself, or the `signedPayload` of a V2 notification body.
    static func jwsText(_ path: String) throws -> String {
        let text = String(decoding: try TestCorpus.bytes(path), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else { return text }
        let body = try #require(try JSONParser.parse(Array(text.utf8)).object)
        guard case .string(let signed) = body["signedPayload"] else { throw CorpusShapeError() }
        return signed
    }

    struct CorpusShapeError: Error {}

    /// Unpadded base64url of `bytes`, as a signer writes it.
    static func base64URL(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    func expectInvalid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) {
            try CompactJWS(text)
        } throws: { error in
            (error as? ReceiptRecordError)?.code == .invalidJWS
        }
    }

    @Test func readsARealAppleSignedNotification() throws {
        let text = try Self.jwsText("receipts/jws/imdhemy-real-v2-test-notification.json")
        let jws = try CompactJWS(text)
        #expect(jws.algorithm == "ES256")
        #expect(jws.certificateChain?.count == 3)
        #expect(jws.certificateChain?.first?.hasPrefix("MIIE") == true)
        #expect(jws.signature.count == 64)
        #expect(jws.signedDate == Timestamp(millisecondsSince1970: 1_662_122_492_884))
        guard case .string(let type) = jws.payload["notificationType"] else {
            Issue.record("no notificationType")
            return
        }
        #expect(type == "TEST")
        let lastDot = try #require(text.lastIndex(of: "."))
        #expect(jws.signingInput == Array(text[..<lastDot].utf8))
        #expect(try JSONParser.parse(jws.payloadBytes).object == jws.payload)
    }

    @Test(arguments: [
        "receipts/jws/goiap-real-sandbox-renewalinfo.jws", "receipts/jws/apple-mock-transactionInfo.jws",
        "receipts/jws/apple-mock-renewalInfo.jws", "receipts/jws/apple-mock-notification-wrongBundleId.jws",
        "receipts/jws/apple-mock-missingX5CHeaderClaim.jws", "receipts/jws/xcode-signed-transaction.jws",
        "receipts/jws/xcode-signed-renewal-info.jws", "receipts/jws/xcode-signed-app-transaction.jws",
    ])
    func parsesEverySignedSampleOfTheCorpus(_ path: String) throws {
        let jws = try CompactJWS(try Self.jwsText(path))
        #expect(jws.algorithm == "ES256")
        #expect(jws.signature.count == 64)
    }

    @Test func keepsAMissingX5CAsAnAbsentChainNotAnError() throws {
        // The header spells it "x5cwrong": a verification outcome (missing-x5c), not a quarantined record.
        let jws = try CompactJWS(try Self.jwsText("receipts/jws/apple-mock-missingX5CHeaderClaim.jws"))
        #expect(jws.certificateChain == nil)
        #expect(jws.header.contains("x5cwrong"))
    }

    @Test func readsXcodesFractionalSignedDateToTheMillisecond() throws {
        let jws = try CompactJWS(try Self.jwsText("receipts/jws/xcode-signed-transaction.jws"))
        #expect(jws.signedDate == Timestamp(millisecondsSince1970: 1_697_679_936_056))
        #expect(jws.certificateChain?.count == 1)
        let appTransaction = try CompactJWS(try Self.jwsText("receipts/jws/xcode-signed-app-transaction.jws"))
        #expect(appTransaction.signedDate == nil)
    }

    /// A JWS built from `header` and `payload` JSON text with a 64-byte zero signature.
    func build(header: String = #"{"alg":"ES256"}"#, payload: String) -> String {
        Self.base64URL(header.utf8) + "." + Self.base64URL(payload.utf8) + "."
            + Self.base64URL([UInt8](repeating: 0, count: 64))
    }

    /// Headers are reused from the last ones decoded (`DecodedHeaders`): one that differs in a single byte, with the
    /// same length, must still be its own.
    @Test func aHeaderDecodedBeforeIsNeverMistakenForAnother() throws {
        let headers = (0..<(DecodedHeaders.capacity + 2)).map { #"{"alg":"ES2\#($0 % 10)6","x5c":["AAAA"]}"# }
        for _ in 0..<2 {
            for header in headers {
                let jws = try CompactJWS(build(header: header, payload: "{}"))
                #expect(jws.header == (try JSONParser.parse(Array(header.utf8))).object)
                #expect(jws.algorithm == "ES2\(header.dropFirst(11).prefix(1))6")
            }
        }
    }

    @Test func keepsAnyAlgorithmAndSignatureLengthForTheVerifier() throws {
        let jws = try CompactJWS(
            Self.base64URL(#"{"alg":"none","x5c":"MIIB"}"#.utf8) + "." + Self.base64URL(#"{"a":1}"#.utf8) + ".")
        #expect(jws.algorithm == "none")
        #expect(jws.certificateChain == nil)  // not an array
        #expect(jws.signature.isEmpty)
        let mixed = try CompactJWS(build(header: #"{"alg":"ES256","x5c":["MIIB",7]}"#, payload: "{}"))
        #expect(mixed.certificateChain == nil)
        let empty = try CompactJWS(build(header: #"{"alg":"ES256","x5c":[]}"#, payload: "{}"))
        #expect(empty.certificateChain == [])
    }

    @Test func refusesTextThatIsNotThreeParts() {
        expectInvalid("")
        expectInvalid("abc")
        expectInvalid("eyJhbGciOiJFUzI1NiJ9.e30")
        expectInvalid(build(payload: "{}") + ".AAAA")
    }

    @Test func refusesPartsThatAreNotCanonicalBase64URL() {
        let good = build(payload: #"{"signedDate":1}"#)
        #expect((try? CompactJWS(good)) != nil)
        let parts = good.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        expectInvalid(parts[0] + "=." + parts[1] + "." + parts[2])  // padding
        expectInvalid(parts[0] + "." + parts[1].replacingOccurrences(of: "e", with: "+") + "." + parts[2])
        expectInvalid(parts[0] + "." + parts[1] + "." + parts[2] + "/")
        expectInvalid(parts[0] + " ." + parts[1] + "." + parts[2])
        expectInvalid(parts[0] + "." + parts[1] + "A." + parts[2])  // a lone sextet
        // "e31" decodes to "{}" but spells a non-zero bit after the last byte ("e30" is the canonical text).
        expectInvalid(parts[0] + ".e31." + parts[2])
        #expect((try? CompactJWS(parts[0] + ".e30." + parts[2])) != nil)
    }

    @Test func refusesAHeaderOrPayloadThatIsNotAJSONObject() {
        expectInvalid(build(header: "not json", payload: "{}"))
        expectInvalid(build(header: #"["alg"]"#, payload: "{}"))
        expectInvalid(build(payload: "{"))
        expectInvalid(build(payload: "[1,2]"))
        expectInvalid(build(payload: #""a string""#))
    }

    @Test func refusesASignedDateThatIsNotEpochMilliseconds() {
        #expect {
            try CompactJWS(build(payload: #"{"signedDate":"1662122492884"}"#))
        } throws: { ($0 as? ReceiptRecordError)?.code == .wrongType }
        #expect {
            try CompactJWS(build(payload: #"{"signedDate":1.6e12}"#))
        } throws: { ($0 as? ReceiptRecordError)?.code == .invalidDate }
        #expect((try? CompactJWS(build(payload: #"{"signedDate":null}"#)))?.signedDate == nil)
        #expect(
            (try? CompactJWS(build(payload: #"{"signedDate":-1.5}"#)))?.signedDate
                == Timestamp(millisecondsSince1970: -2))
    }

    @Test func decodesBase64URLVectorsOfRFC4648() {
        #expect(Base64URL.decode(Array("".utf8)) == [])
        #expect(Base64URL.decode(Array("Zg".utf8)) == Array("f".utf8))
        #expect(Base64URL.decode(Array("Zm8".utf8)) == Array("fo".utf8))
        #expect(Base64URL.decode(Array("Zm9v".utf8)) == Array("foo".utf8))
        #expect(Base64URL.decode(Array("Zm9vYmFy".utf8)) == Array("foobar".utf8))
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode(Array("Zg==".utf8)) == nil)
        #expect(Base64URL.decode(Array("Zh".utf8)) == nil)  // non-zero trailing bits
        #expect(Base64URL.decode(Array("Z".utf8)) == nil)
    }
}
