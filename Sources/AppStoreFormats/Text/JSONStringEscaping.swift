/// The inside of a JSON string literal from UTF-8 bytes: `"` and `\` escaped, `\n`, `\t` and `\r` by name, every other
/// control character as `\u00xx`, and `/` as `\/` when asked (as some of Apple's responses write `Etc\/GMT`); all
/// other UTF-8 kept as is. Written once for the targets that build JSON as bytes (the generator, ingest's rows).
/// Log lines and report pages escape by rules of their own (`LogLine`, `ReportRenderer+JSON`).
package enum JSONStringEscaping {
    /// Appends `text` escaped, without the quotes.
    package static func append(
        _ text: UnsafeBufferPointer<UInt8>, to json: inout [UInt8], escapingSlashes: Bool = false
    ) {
        // Nearly every string needs no escaping: check first, then copy it whole.
        let isPlain = text.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && !(escapingSlashes && byte == UInt8(ascii: "/"))
        }
        if isPlain {
            json.append(contentsOf: text)
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                json += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "/") where escapingSlashes:
                json += [UInt8(ascii: "\\"), byte]
            case 0x0A: json += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x09: json += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0D: json += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0..<0x20:
                json += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                LowercaseHex.append(byte, to: &json)
            default:
                json.append(byte)
            }
        }
    }

    /// Appends `text` as a quoted JSON string.
    package static func appendQuoted(_ text: String, to json: inout [UInt8]) {
        var text = text
        json.append(UInt8(ascii: "\""))
        text.withUTF8 { append($0, to: &json) }
        json.append(UInt8(ascii: "\""))
    }
}
