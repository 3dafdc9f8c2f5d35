/// A strict, fast JSON (RFC 8259) parser over UTF-8 bytes; it refuses `\\u0000`, which PostgreSQL text cannot hold.
///
/// Written for receipts rather than borrowed from Foundation: it validates UTF-8, keeps numbers as text, records
/// member positions (so a raw username can be cut out of the stored record), bounds nesting depth, and reports the
/// byte offset of every error.
package struct JSONParser {
    /// Deepest nesting accepted; deeper input is rejected instead of exhausting the stack.
    package static let maximumDepth = 128

    /// Parses exactly one JSON value (surrounding white space allowed) from `bytes`; object keys listed in `keys`
    /// are that table's strings rather than new ones.
    package static func parse(
        _ bytes: some Collection<UInt8>, keys: JSONKeyTable = .empty
    ) throws(JSONParseError) -> JSONValue {
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer, keys: keys) }
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            try parse(buffer: buffer, keys: keys)
        }
    }

    static func parse(
        buffer: UnsafeBufferPointer<UInt8>, keys: JSONKeyTable = .empty
    ) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: buffer, keys: keys)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == buffer.count else {
            throw JSONParseError(reason: .trailingData, offset: parser.position)
        }
        return value
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let keys: JSONKeyTable
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, keys: JSONKeyTable) {
        self.bytes = bytes
        self.keys = keys
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private func fail(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset ?? position)
    }

    private func peek() throws(JSONParseError) -> UInt8 {
        guard position < bytes.count else { throw fail(.unexpectedEnd) }
        return bytes[position]
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case let byte: throw fail(.unexpectedByte(byte))
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
        for index in 0..<count {
            guard position + index < bytes.count else { throw fail(.unexpectedEnd, at: position + index) }
            guard bytes[position + index] == expected[index] else {
                throw fail(.unexpectedByte(bytes[position + index]), at: position + index)
            }
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONObject {
        guard depth <= Self.maximumDepth else { throw fail(.tooDeep(limit: Self.maximumDepth)) }
        position += 1  // {
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            position += 1
            return JSONObject(members: members)
        }
        // Room for a signed payload's members (about 20) in one growth: from empty, an array of them was grown
        // five times, and every JWS payload of a signed ingest is an object like that.
        members.reserveCapacity(16)
        while true {
            skipWhitespace()
            let start = position
            guard try peek() == UInt8(ascii: "\"") else { throw fail(.unexpectedByte(bytes[position])) }
            let key = try parseString(isKey: true)
            // The key's bytes, for its tag: as written when it had no escape (the decoded text is the same then).
            let keyBytes = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(position - 1)])
            let keyTag = keyBytes.count == key.utf8.count ? JSONObject.tag(of: keyBytes) : JSONObject.tag(of: key)
            skipWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw fail(.unexpectedByte(bytes[position])) }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONObject.Member(key: key, keyTag: keyTag, value: value, range: start..<position))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return JSONObject(members: members)
            case let byte: throw fail(.unexpectedByte(byte))
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw fail(.tooDeep(limit: Self.maximumDepth)) }
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            case let byte: throw fail(.unexpectedByte(byte))
            }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = position
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber, at: start) }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber, at: start) }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail(.invalidNumber, at: start) }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    private mutating func parseString(isKey: Bool = false) throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        var sawNonASCII = false
        // Fast path: no escapes, the common case for receipts. Eight plain bytes at a time first: a receipt's
        // base64 receipt_data is most of its bytes, and a byte at a time it was the parser's largest cost.
        skipPlainWords()
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if !sawNonASCII {
                    if isKey, let known = keys.key(slice) { return known }
                    return String(decoding: slice, as: UTF8.self)
                }
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw fail(.invalidUTF8, at: start)
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw fail(.controlCharacterInString) }
            if byte >= 0x80 { sawNonASCII = true }
            position += 1
        }
        throw fail(.unexpectedEnd)
    }

    /// Moves `position` past whole 8-byte words holding no quote, backslash, control or non-ASCII byte; the byte
    /// loop then judges the word that holds one. (SWAR: a byte's high bit set in `flagged` marks a byte to look at;
    /// a borrow can mark a plain byte after a marked one too, which the byte loop then reads as plain.)
    private mutating func skipPlainWords() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let base = UnsafeRawPointer(bytes.baseAddress)
        guard let base else { return }
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            let flagged =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | (word &- ones &* 0x20) | word
            if flagged & highs != 0 { return }
            position += 8
        }
    }

    /// A string with an escape at `position`, whose unescaped bytes began at `start`. When its bytes are ASCII, it is
    /// decoded straight into the new string's storage, sized by where its closing quote stands: the decoded text is
    /// never longer than its source. (A base64 `receipt_data` takes this path, Apple writing `\/` for its slashes:
    /// an array grown a run at a time and then copied into a string were two more copies of a 2 kB blob a record.)
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        let plain = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let end = asciiStringEnd(from: position) else {
            // Non-ASCII bytes (or no end): decoded into an array, then validated as UTF-8.
            var decoded = Array(plain)
            try decodeEscaped({ decoded.append($0) }, { decoded.append(contentsOf: $0) })
            guard let text = String(validating: decoded, as: UTF8.self) else { throw fail(.invalidUTF8, at: start) }
            return text
        }
        var failure: JSONParseError?
        let text = String(unsafeUninitializedCapacity: end - start) { buffer in
            var output = OutputBytes(buffer: buffer)
            output.append(plain)
            do throws(JSONParseError) {
                try decodeEscaped({ output.append($0) }, { output.append($0) })
            } catch {
                failure = error
            }
            return failure == nil ? output.count : 0
        }
        if let failure { throw failure }
        return text
    }

    /// Decodes an escaped string from `position` through its closing quote, handing its bytes on one at a time
    /// (`appendByte`) or a plain run at a time (`appendRun`).
    private mutating func decodeEscaped(
        _ appendByte: (UInt8) -> Void, _ appendRun: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(JSONParseError) {
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw fail(.unexpectedEnd) }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): appendByte(escape)
                case UInt8(ascii: "b"): appendByte(0x08)
                case UInt8(ascii: "f"): appendByte(0x0C)
                case UInt8(ascii: "n"): appendByte(0x0A)
                case UInt8(ascii: "r"): appendByte(0x0D)
                case UInt8(ascii: "t"): appendByte(0x09)
                case UInt8(ascii: "u"): UTF8.encode(try readUnicodeEscape(), into: appendByte)
                default: throw fail(.invalidEscape, at: position - 2)
                }
            case 0..<0x20:
                throw fail(.controlCharacterInString)
            default:
                // This byte and the plain words after it, in one run (Apple writes "\/" for every slash of a base64
                // receipt, so its receipt_data takes this path).
                let run = position
                position += 1
                skipPlainWords()
                appendRun(UnsafeBufferPointer(rebasing: bytes[run..<position]))
            }
        }
        throw fail(.unexpectedEnd)
    }

    /// The offset of the quote that closes the string whose escape is at `from`, when every byte before it is ASCII;
    /// nil otherwise (no closing quote, or a byte that needs UTF-8 validation). Escapes are only stepped over here:
    /// `parseEscapedString` judges them.
    private mutating func asciiStringEnd(from: Int) -> Int? {
        let resume = position
        defer { position = resume }
        position = from
        while position < bytes.count {
            skipPlainWords()
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""): return position
            case UInt8(ascii: "\\"): position += 2
            case 0x80...: return nil
            default: position += 1
            }
        }
        return nil
    }

    /// Bytes written into a string's storage, never past its end (`parseEscapedString` sized it to hold them).
    private struct OutputBytes {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        mutating func append(_ byte: UInt8) {
            precondition(count < buffer.count)
            buffer[count] = byte
            count += 1
        }

        mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
            precondition(count + run.count <= buffer.count)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[count..<(count + run.count)]).initialize(
                fromContentsOf: run)
            count += run.count
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail(.unexpectedEnd) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidEscape)
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// The scalar of the `\\u` escape (with its low surrogate, for a high one) whose hex digits start at `position`.
    private mutating func readUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = position - 2
        var scalarValue = try readHex4()
        if (0xD800...0xDBFF).contains(scalarValue) {
            // A high surrogate must be followed by an escaped low surrogate; Swift strings cannot hold lone halves.
            guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else { throw fail(.invalidEscape, at: escapeStart) }
            position += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail(.invalidEscape, at: escapeStart) }
            scalarValue = 0x10000 + ((scalarValue - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalarValue) {
            throw fail(.invalidEscape, at: escapeStart)
        }
        guard scalarValue != 0 else { throw fail(.nulCharacter, at: escapeStart) }
        guard let scalar = Unicode.Scalar(scalarValue) else { throw fail(.invalidEscape, at: escapeStart) }
        return scalar
    }
}
