/// Cuts application usernames out of bytes that could not be parsed, before they are kept in the quarantine.
///
/// A bad record cannot be parsed, so the cut is lexical: after every `application_username"` key (the `_hash`
/// variant is not secret) the following string value is blanked, and when no complete string follows, everything to
/// the end of the record is dropped. Over-redacting a broken record is the safe side.
package enum UsernameRedaction {
    private static let key = Array("application_username\"".utf8)
    private static let marker = Array("[redacted]".utf8)

    /// `bytes` with any username value replaced by `[redacted]`, and at most `limit` bytes long.
    package static func redact(_ bytes: some Collection<UInt8>, limit: Int) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(min(input.count, limit))
        var index = 0
        while index < input.count {
            if matchesKey(input, at: index) {
                output.append(contentsOf: key)
                index += key.count
                // Copy white space and the colon, then skip the string value.
                while index < input.count, input[index] == 0x20 || input[index] == 0x09 || input[index] == 0x3A {
                    output.append(input[index])
                    index += 1
                }
                guard index < input.count, input[index] == UInt8(ascii: "\"") else {
                    if index < input.count, input[index] == UInt8(ascii: "n") { continue }  // null
                    output.append(contentsOf: marker)
                    return Array(output.prefix(limit))
                }
                guard let end = closingQuote(input, after: index) else {
                    output.append(contentsOf: marker)
                    return Array(output.prefix(limit))
                }
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: marker)
                output.append(UInt8(ascii: "\""))
                index = end + 1
                continue
            }
            output.append(input[index])
            index += 1
            if output.count >= limit + key.count { break }
        }
        return Array(output.prefix(limit))
    }

    private static func matchesKey(_ input: [UInt8], at index: Int) -> Bool {
        guard index + key.count <= input.count else { return false }
        for offset in 0..<key.count where input[index + offset] != key[offset] { return false }
        return true
    }

    private static func closingQuote(_ input: [UInt8], after opening: Int) -> Int? {
        var index = opening + 1
        while index < input.count {
            switch input[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            case 0x0A: return nil
            default: index += 1
            }
        }
        return nil
    }
}
