#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Signed data as Apple sends it since StoreKit 2 (docs/decisions.md, "Signed data"): a compact JWS,
/// `BASE64URL(header).BASE64URL(payload).BASE64URL(signature)`, split and decoded but not verified.
///
/// Parsing fails (`invalid-jws`) only for what is not a JWS at all: not three parts, a part that is not base64url, a
/// header or payload that is not a JSON object. Everything a verifier judges — the algorithm, the certificate chain,
/// the signature's length — is kept as found, so that a forged record is stored with its verification outcome
/// instead of vanishing into the quarantine (`AppStoreSignatures.SignatureVerifier`).
package struct CompactJWS: Sendable, Equatable {
    /// The protected header, e.g. `{"alg":"ES256","x5c":[…]}`.
    package var header: JSONObject
    /// The header's `alg`, when it is a string (`ES256` for everything Apple signs).
    package var algorithm: String?
    /// The header's `x5c`: the certificate chain, leaf first, each certificate standard base64 of its DER; nil when
    /// the header has no `x5c` or it is not an array of strings.
    package var certificateChain: [String]?
    /// The decoded payload, byte for byte as signed.
    package var payloadBytes: [UInt8]
    /// The payload parsed: a transaction, a renewal info, a notification, an app transaction.
    package var payload: JSONObject
    /// The decoded signature: for ES256 the 64 bytes `r || s` (a verifier judges any other length).
    package var signature: [UInt8]
    /// The compact JWS as parsed: the string a record held it in, shared rather than copied (4 kB a JWS).
    private var text: String
    /// The length of the signing input, the part of `text` before its second dot.
    private var signingInputCount: Int
    /// The instant Apple documents as the payload's signing date, at which certificates are judged (not at "now"):
    /// the payload's `signedDate` (epoch milliseconds; Xcode writes fractions, which are cut to the millisecond), or
    /// nil when it has none. An app transaction is signed at its `receiptCreationDate` instead: `SignedRecordReader`,
    /// which knows the payload's kind, sets it.
    package var signedDate: Timestamp?

    /// Parses a compact JWS from its ASCII text (no surrounding whitespace or quotes).
    package init(_ text: some Collection<UInt8>) throws(ReceiptRecordError) {
        try self.init(String(decoding: text, as: UTF8.self), original: text)
    }

    /// Parses a compact JWS from a string, in place: a native string's UTF-8 is read where it lies, and kept by
    /// reference, without the copies of every JWS's 4 kB that an array of its bytes and of its signing input cost.
    package init(_ text: String) throws(ReceiptRecordError) {
        try self.init(text, original: text.utf8)
    }

    /// `text` is `original` as a string; what is not UTF-8 (a JWS is ASCII) is refused from `original`'s bytes,
    /// before the string's repairs could pass it.
    private init(_ text: String, original: some Collection<UInt8>) throws(ReceiptRecordError) {
        let parsed = original.withContiguousStorageIfAvailable { buffer in
            Result { () throws(ReceiptRecordError) in try Self(text, contiguous: buffer) }
        }
        if let parsed {
            self = try parsed.get()
        } else {
            self = try Array(original).withUnsafeBufferPointer { buffer throws(ReceiptRecordError) in
                try Self(text, contiguous: buffer)
            }
        }
    }

    private init(_ text: String, contiguous bytes: UnsafeBufferPointer<UInt8>) throws(ReceiptRecordError) {
        let dot = UInt8(ascii: ".")
        guard let first = Self.firstDot(in: bytes, from: 0), let second = Self.firstDot(in: bytes, from: first + 1),
            Self.firstDot(in: bytes, from: second + 1) == nil
        else {
            throw ReceiptRecordError(
                .invalidJWS,
                "signed data is not a compact JWS: \(bytes.count { $0 == dot } + 1) parts separated by '.', not 3")
        }
        let headerText = bytes[..<first]
        let payloadText = bytes[(first + 1)..<second]
        let signatureText = bytes[(second + 1)...]

        let header = try DecodedHeaders.shared.header(headerText) { text throws(ReceiptRecordError) in
            try Self.decodedHeader(try Self.jsonObject(text, part: "header"))
        }
        let payloadBytes = try Self.decode(payloadText, part: "payload")
        let payload = try Self.jsonObject(decoded: payloadBytes, part: "payload")
        self.header = header.object
        self.algorithm = header.algorithm
        self.certificateChain = header.certificateChain
        self.payloadBytes = payloadBytes
        self.payload = payload
        self.signature = try Self.decode(signatureText, part: "signature")
        self.text = text
        self.signingInputCount = second
        self.signedDate = try Self.signedDate(payload)
    }

    /// What the signature signs: the ASCII bytes `header.payload` exactly as they arrived.
    package var signingInput: [UInt8] { Array(text.utf8.prefix(signingInputCount)) }

    /// Calls `body` with the signing input's bytes where they lie: what a verifier hashes, without a copy.
    package func withSigningInput<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let prefix = text.utf8.prefix(signingInputCount)
        if let result = prefix.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(prefix).withUnsafeBytes(body)
    }

    /// The offset of the first `.` at or after `start`, found by `memchr`: a JWS is about 4 kB of base64url with its
    /// two dots far apart, and a byte at a time the search was a tenth of its parsing.
    private static func firstDot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// A header with its `alg` and `x5c` read out, once per distinct header text (`DecodedHeaders`), so the JWS
    /// one signer signs share one chain array: a verifier finds its judged chain by that array's identity.
    static func decodedHeader(_ object: JSONObject) -> DecodedHeader {
        var decoded = DecodedHeader(object: object)
        if case .string(let algorithm) = object["alg"] { decoded.algorithm = algorithm }
        if case .array(let entries) = object["x5c"] {
            var chain: [String] = []
            chain.reserveCapacity(entries.count)
            for entry in entries {
                guard case .string(let certificate) = entry else { return decoded }
                chain.append(certificate)
            }
            decoded.certificateChain = chain
        }
        return decoded
    }

    private static func decode(
        _ text: Slice<UnsafeBufferPointer<UInt8>>, part: String
    ) throws(ReceiptRecordError) -> [UInt8] {
        guard let bytes = Base64URL.decode(UnsafeBufferPointer(rebasing: text)) else {
            throw ReceiptRecordError(.invalidJWS, "the JWS \(part) is not unpadded base64url")
        }
        return bytes
    }

    private static func jsonObject(
        _ text: Slice<UnsafeBufferPointer<UInt8>>, part: String
    ) throws(ReceiptRecordError) -> JSONObject {
        try jsonObject(decoded: try decode(text, part: part), part: part)
    }

    private static func jsonObject(decoded bytes: [UInt8], part: String) throws(ReceiptRecordError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw ReceiptRecordError(.invalidJWS, "the JWS \(part) is not JSON: \(error)")
        }
        guard let object = value.object else {
            throw ReceiptRecordError(.invalidJWS, "the JWS \(part) is a JSON \(value.typeName), not an object")
        }
        return object
    }

    /// `signedDate` as epoch milliseconds; a fraction (Xcode's `1697679936056.485`) is cut to the millisecond below.
    private static func signedDate(_ payload: JSONObject) throws(ReceiptRecordError) -> Timestamp? {
        guard let value = payload["signedDate"], value != .null else { return nil }
        guard case .number(let text) = value else {
            throw ReceiptRecordError(.wrongType, "\"signedDate\" is a \(value.typeName), not epoch milliseconds")
        }
        guard let instant = DateText.epochMilliseconds(text) else {
            let problem =
                DateText.isOutsideStorableRange(text) ? "is " + DateText.storableRangeNote : "is not epoch milliseconds"
            throw ReceiptRecordError(.invalidDate, "\"signedDate\" \(problem) (\(text.prefix(80)))")
        }
        return instant
    }
}
