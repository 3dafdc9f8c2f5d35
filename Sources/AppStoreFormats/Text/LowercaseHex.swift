/// Bytes as lowercase hexadecimal, two digits a byte: how SHA-256 digests, receipt-data hashes and identifiers are
/// written everywhere above this target. (`Postgres`, which imports nothing of ours, has its own for `bytea`.)
package enum LowercaseHex {
    /// The sixteen digits as ASCII bytes, for writers that append into a byte buffer.
    package static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends the two digits of `byte`.
    @inline(__always)
    package static func append(_ byte: UInt8, to text: inout [UInt8]) {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }

    /// `bytes` as a string of `2 × count` digits.
    package static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &text) }
        return String(decoding: text, as: UTF8.self)
    }
}
