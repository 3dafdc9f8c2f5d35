/// The base64url alphabet of RFC 4648 §5 without padding, as a compact JWS spells its three parts (RFC 7515 §2).
package enum Base64URL {
    /// The bytes `text` encodes, or nil when it is not canonical unpadded base64url: a byte outside `A-Z a-z 0-9 - _`
    /// (`=`, `+`, `/` and whitespace included), a length that leaves one character over, or non-zero bits after the
    /// last byte. Refusing the non-canonical spellings gives every JWS exactly one text.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode(contiguous: $0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode(contiguous: $0) }
    }

    /// Four characters at a time through a table: the payload of every JWS a signed ingest reads is decoded here, and
    /// a character at a time it was 6% of that ingest's CPU.
    private static func decode(contiguous text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let quads = text.count / 4
        let rest = text.count % 4
        // A lone character over (length ≡ 1 mod 4) spells 6 bits, not a byte.
        guard rest != 1 else { return nil }
        let count = quads * 3 + (rest == 0 ? 0 : rest - 1)
        return sextets.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                var input = 0
                var next = 0
                for _ in 0..<quads {
                    let a = table[Int(text[input])], b = table[Int(text[input + 1])]
                    let c = table[Int(text[input + 2])], d = table[Int(text[input + 3])]
                    // Valid sextets are below 64; `invalid` has the high bits set.
                    guard (a | b | c | d) & 0xC0 == 0 else {
                        valid = false
                        break
                    }
                    let bits = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out[next] = UInt8(truncatingIfNeeded: bits >> 16)
                    out[next + 1] = UInt8(truncatingIfNeeded: bits >> 8)
                    out[next + 2] = UInt8(truncatingIfNeeded: bits)
                    input += 4
                    next += 3
                }
                if valid && rest > 0 {
                    var bits: UInt32 = 0
                    for offset in 0..<rest {
                        let sextet = table[Int(text[input + offset])]
                        valid = valid && sextet & 0xC0 == 0
                        bits = bits << 6 | UInt32(sextet & 0x3F)
                    }
                    // The bits after the last byte (4 of 2 characters, 2 of 3) must be zero.
                    if rest == 2 {
                        valid = valid && bits & 0xF == 0
                        out[next] = UInt8(truncatingIfNeeded: bits >> 4)
                    } else {
                        valid = valid && bits & 0x3 == 0
                        out[next] = UInt8(truncatingIfNeeded: bits >> 10)
                        out[next + 1] = UInt8(truncatingIfNeeded: bits >> 2)
                    }
                }
                initialized = valid ? count : 0
            }
            return valid ? output : nil
        }
    }

    /// Whether `byte` is one of the 64 characters of the alphabet.
    package static func isAlphabet(_ byte: UInt8) -> Bool {
        sextet(byte) != invalid
    }

    private static let invalid: UInt8 = 0xFF

    /// Each byte's sextet, or `invalid`.
    private static let sextets: [UInt8] = (0...255).map { sextet(UInt8($0)) }

    private static func sextet(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: invalid
        }
    }
}
