/// The base64url alphabet of RFC 4648 §5 without padding, as a compact JWS spells its three parts (RFC 7515 §2).
package enum Base64URL {
    /// The bytes `text` encodes, or nil when it is not canonical unpadded base64url: a byte outside `A-Z a-z 0-9 - _`
    /// (`=`, `+`, `/` and whitespace included), a length that leaves one character over, or non-zero bits after the
    /// last byte. Refusing the non-canonical spellings gives every JWS exactly one text.
    package static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            let value = sextet(byte)
            guard value != invalid else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        // 6 bits left over is a lone character (length ≡ 1 mod 4); 2 or 4 left over must be zero.
        guard bits < 6, accumulator == 0 else { return nil }
        return output
    }

    /// Whether `byte` is one of the 64 characters of the alphabet.
    package static func isAlphabet(_ byte: UInt8) -> Bool {
        sextet(byte) != invalid
    }

    private static let invalid: UInt8 = 0xFF

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
