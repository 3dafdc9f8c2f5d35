import Testing

@testable import AppStoreFormats

/// `Base64URL.decode` reads four characters at a time; it must refuse and accept exactly what the definition does
/// (RFC 4648 §5, unpadded, canonical), which the reference below spells a character at a time.
struct Base64URLTests {
    /// The definition, one character at a time: the decoder as it was before it was made fast.
    static func reference(_ text: [UInt8]) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard bits < 6, accumulator == 0 else { return nil }
        return output
    }

    @Test func agreesWithTheDefinitionOnEveryLengthAndEveryKindOfCharacter() {
        // Mostly the alphabet, sometimes a character outside it, at every position of a block and of its rest.
        let characters = Array("AQgw/+=. \0Zz09-_e3".utf8) + Array(repeating: UInt8(ascii: "A"), count: 4)
        var generator = SystemRandomNumberGenerator()
        for length in 0...41 {
            for _ in 0..<300 {
                let text = (0..<length).map { _ in
                    Int.random(in: 0..<8, using: &generator) == 0
                        ? characters.randomElement(using: &generator)!
                        : Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
                            .randomElement(using: &generator)!
                }
                #expect(Base64URL.decode(text) == Self.reference(text), "\(String(decoding: text, as: UTF8.self))")
                #expect(Base64URL.decode(text[...]) == Self.reference(text))
            }
        }
    }

    @Test func refusesEveryByteOutsideTheAlphabetWhereverItStands() {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for byte in UInt8.min...UInt8.max where !alphabet.contains(byte) {
            for position in 0..<7 {
                var text = Array("Zm9vYmE".utf8)
                text[position] = byte
                #expect(Base64URL.decode(text) == nil)
            }
        }
    }
}
