internal import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JWS headers decoded last: everything one signer signs carries the same header (its `x5c` chain, about 4 kB of
/// base64url around base64), so a million records decode and parse a handful of headers instead of a million.
///
/// A header is found by comparing its text byte for byte, never by a hash alone, so a cached header is exactly the
/// one the text says. Shared by every parsing thread; the lock is held for a lookup or an insert, never for a decode.
final class DecodedHeaders: Sendable {
    static let shared = DecodedHeaders()
    /// Headers kept: a few signers' worth. A file whose every record has a header of its own (forgeries) only
    /// rotates the list.
    static let capacity = 8

    private let entries = Mutex<[(text: [UInt8], header: DecodedHeader)]>([])

    /// The header `text` decodes to, from the list or decoded by `decode` (and then kept).
    func header(
        _ text: Slice<UnsafeBufferPointer<UInt8>>,
        decode: (Slice<UnsafeBufferPointer<UInt8>>) throws(ReceiptRecordError) -> DecodedHeader
    ) throws(ReceiptRecordError) -> DecodedHeader {
        let found = entries.withLock { list in list.first { Self.equal($0.text, text) }?.header }
        if let found { return found }
        let header = try decode(text)
        entries.withLock { list in
            if list.count >= Self.capacity { list.removeLast() }
            list.insert((Array(text), header), at: 0)
        }
        return header
    }

    /// memcmp: compared a byte at a time (`elementsEqual`), the 4 kB of every JWS's header cost 2% of a signed
    /// ingest's CPU.
    private static func equal(_ stored: [UInt8], _ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard stored.count == text.count else { return false }
        let b = UnsafeBufferPointer(rebasing: text)
        return stored.withUnsafeBytes { a in
            guard let first = a.baseAddress, let second = b.baseAddress else { return a.isEmpty }
            return memcmp(first, second, a.count) == 0
        }
    }
}

/// A JWS header as parsed, with the two members a verifier reads.
struct DecodedHeader: Sendable {
    var object: JSONObject
    /// `alg`, when it is a string.
    var algorithm: String?
    /// `x5c`, when it is an array of strings.
    var certificateChain: [String]?
}
