internal import AppStoreFormats
internal import AppStoreSignatures

/// The signed objects (JWS) of one stored record, each with its compact text exactly as the record holds it: what
/// Apple signed, byte for byte, for a receiver to check with any JWS tool.
///
/// Found the way ingest finds them (`ReceiptRecordParser`), so the ordinals are those of `signed_object`. The stored
/// record holds no username to hash: the parser's hasher is never asked.
struct SignedCopy {
    var ordinal: Int
    var kind: String
    var path: String
    /// The compact JWS as it appears in the record.
    var text: [UInt8]
    var jws: CompactJWS

    /// The signed objects of the record `raw`.
    static func copies(inRecord raw: [UInt8]) throws(ReceiptRecordError) -> [SignedCopy] {
        let receipt = try ReceiptRecordParser(hasher: AccountKeyHasher(pepper: nil)).parse(raw)
        return receipt.signedObjects.compactMap { object in
            verbatim(object.jws, in: raw).map {
                SignedCopy(
                    ordinal: object.ordinal, kind: object.kind.rawValue, path: object.path, text: $0, jws: object.jws)
            }
        }
    }

    /// The compact JWS whose signing input is `jws`'s, as written in `raw`: its `header.payload`, a dot and the
    /// base64url signature after it. Nil when the record does not hold it verbatim.
    static func verbatim(_ jws: CompactJWS, in raw: [UInt8]) -> [UInt8]? {
        let input = jws.signingInput
        guard !input.isEmpty, raw.count > input.count else { return nil }
        var start = raw.startIndex
        while let found = raw[start...].firstRange(of: input) {
            var end = found.upperBound
            if end < raw.endIndex, raw[end] == UInt8(ascii: ".") {
                end += 1
                while end < raw.endIndex, isBase64URL(raw[end]) { end += 1 }
                return Array(raw[found.lowerBound..<end])
            }
            start = found.lowerBound + 1
        }
        return nil
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The outcome of `text` (a compact JWS) under `verifier`, judged at its own signing date, or at `fallbackDate`
    /// when its payload names none (an app transaction is signed at its receipt's creation date, which the record's
    /// reader sets); `invalid-jws` when the text is no JWS at all.
    static func outcome(of text: [UInt8], fallbackDate: Timestamp?, verifier: SignatureVerifier) -> String {
        guard var jws = try? CompactJWS(text) else { return "invalid-jws" }
        if jws.signedDate == nil { jws.signedDate = fallbackDate }
        return verifier.verify(jws).rawValue
    }
}
