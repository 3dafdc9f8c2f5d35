/// Object keys a parse takes from a fixed list rather than allocating a new string for each.
///
/// A key of more than 15 UTF-8 bytes does not fit in a small Swift string, so every one read was a heap allocation,
/// freed with the tree: a verifyReceipt transaction has about seven (`original_purchase_date_pst`,
/// `original_transaction_id`…), and they were a good part of the ingest's malloc and free. A key found here is the
/// list's own string, equal to the one the parser would have built: nothing a caller sees changes.
package struct JSONKeyTable: Sendable {
    /// For each length in bytes, the listed keys of that length with their bytes (only lengths above 15: shorter
    /// keys cost no allocation anyway).
    private let byLength: [[(bytes: [UInt8], key: String)]]

    /// A table of `keys`; those of 15 bytes or fewer are left out, as needing no table.
    package init(_ keys: some Sequence<String>) {
        var byLength: [[(bytes: [UInt8], key: String)]] = []
        for key in Set(keys) where key.utf8.count > 15 {
            let count = key.utf8.count
            if byLength.count <= count { byLength += Array(repeating: [], count: count + 1 - byLength.count) }
            byLength[count].append((Array(key.utf8), key))
        }
        self.byLength = byLength
    }

    /// No keys: every key is built from its bytes.
    package static let empty = JSONKeyTable([])

    /// The listed key spelled by `bytes`, if any.
    func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count < byLength.count, let text = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        for candidate in byLength[bytes.count] {
            let isSame = candidate.bytes.withUnsafeBytes { listed in
                Self.equal(text, listed.baseAddress.unsafelyUnwrapped, count: bytes.count)
            }
            if isSame { return candidate.key }
        }
        return nil
    }

    /// Whether `count` (16 or more) bytes at `a` and `b` are the same, compared eight at a time: a byte loop over
    /// every long key of a record cost more than the allocations it saves.
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard
                a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        // The last word overlaps the one before: count is at least 16, so it never reads before the start.
        return a.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
}
