/// `bytea` input text (`\x…`) for a bound parameter.
///
/// The one place that spells it until `Postgres` binds `bytea` parameters itself; both ingest paths call it.
func byteaText(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
    text.reserveCapacity(2 + 2 * bytes.count)
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
