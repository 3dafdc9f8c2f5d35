/// Apple's date spellings, written straight into the byte buffer.
extension JSONByteWriter {
    /// Writes `"YYYY-MM-DD HH:MM:SS Etc/GMT"` (seconds truncated, as Apple does).
    mutating func gmtDate(_ milliseconds: Int64) {
        rawByte(UInt8(ascii: "\""))
        appendDateTime(AppleTime.fields(milliseconds), separator: UInt8(ascii: " "))
        raw(escapesSlashes ? " Etc\\/GMT\"" : " Etc/GMT\"")
    }

    /// Writes `"YYYY-MM-DD HH:MM:SS America/Los_Angeles"`: the same instant in Pacific time, daylight saving included.
    mutating func pacificDate(_ milliseconds: Int64) {
        rawByte(UInt8(ascii: "\""))
        let local = milliseconds + AppleTime.pacificOffset(at: milliseconds)
        appendDateTime(AppleTime.fields(local), separator: UInt8(ascii: " "))
        raw(escapesSlashes ? " America\\/Los_Angeles\"" : " America/Los_Angeles\"")
    }

    /// Writes RFC 3339 UTC, `"2014-03-02T10:11:12Z"`, the envelope's `recorded_at`.
    mutating func rfc3339Date(_ milliseconds: Int64) {
        rawByte(UInt8(ascii: "\""))
        appendDateTime(AppleTime.fields(milliseconds), separator: UInt8(ascii: "T"))
        raw("Z\"")
    }

    /// Writes the three forms Apple gives every date: `name` (GMT string), `name_ms` and `name_pst`.
    mutating func appleDate(
        _ name: StaticString, _ msName: StaticString, _ pstName: StaticString, _ milliseconds: Int64,
        typedNumbers: Bool
    ) {
        key(name)
        gmtDate(milliseconds)
        key(msName)
        if typedNumbers { number(milliseconds) } else { quotedNumber(milliseconds) }
        key(pstName)
        pacificDate(milliseconds)
    }

    /// `YYYY-MM-DD?HH:MM:SS` with `separator` between date and time, built on the stack and appended once.
    private mutating func appendDateTime(_ fields: AppleTime.Fields, separator: UInt8) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 19) { text in
            let pairs = Self.digitPairs
            func put(_ value: Int, at offset: Int) {
                text[offset] = pairs[value * 2]
                text[offset + 1] = pairs[value * 2 + 1]
            }
            put(fields.year / 100 % 100, at: 0)
            put(fields.year % 100, at: 2)
            text[4] = UInt8(ascii: "-")
            put(fields.month, at: 5)
            text[7] = UInt8(ascii: "-")
            put(fields.day, at: 8)
            text[10] = separator
            put(fields.hour, at: 11)
            text[13] = UInt8(ascii: ":")
            put(fields.minute, at: 14)
            text[16] = UInt8(ascii: ":")
            put(fields.second, at: 17)
            raw(UnsafeBufferPointer(text))
        }
    }
}
