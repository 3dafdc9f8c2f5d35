internal import CivilCalendar

/// An instant in UTC with millisecond precision, as Apple's `_ms` fields carry it.
package struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package var millisecondsSince1970: Int64

    /// An instant from epoch milliseconds.
    package init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    /// The first and last millisecond of years 1 to 9999 UTC: what every text form writes and what a `timestamptz`
    /// holds without overflowing the microseconds it is sent in. Dates outside are refused where they are read.
    package static let storableMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// `instant` if it lies within `storableMilliseconds`, else nil.
    package static func storable(_ instant: Timestamp) -> Timestamp? {
        storableMilliseconds.contains(instant.millisecondsSince1970) ? instant : nil
    }

    package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }

    /// The instant at a UTC civil date and time, or nil if the fields are impossible (month 13, February 30, …).
    package init?(
        year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0
    ) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...CalendarMath.daysIn(month, year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (0...999).contains(millisecond)
        else { return nil }
        // A leap second (:60) is folded into the next second, as POSIX time does.
        let days = Int64(CalendarMath.daysFromCivil(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        self.millisecondsSince1970 = seconds * 1000 + Int64(millisecond)
    }

    /// The UTC civil fields of this instant.
    package var utcFields: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, millisecond: Int) {
        let milliseconds = millisecondsSince1970
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let millisecond = Int(milliseconds - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = CalendarMath.civilFromDays(Int(days))
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, millisecond)
    }

    /// PostgreSQL `timestamptz` input text in UTC, e.g. `2014-03-02 10:11:12.345+00`.
    package var postgresText: String { String(decoding: postgresBytes, as: UTF8.self) }

    /// `postgresText` as UTF-8 bytes.
    package var postgresBytes: [UInt8] { withPostgresBytes { Array($0) } }

    /// Calls `body` with `postgresText`'s UTF-8 bytes, written on the stack: COPY writes millions of them, and an
    /// array for each was an allocation and a free.
    package func withPostgresBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let f = utcFields
        // 4 digits of a year (up to 19 for one that cannot occur), 15 more for the rest, 4 for the milliseconds.
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var count = 0
            func append(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            func append(_ value: Int, width: Int) {
                var divisor = 1
                for _ in 1..<width { divisor *= 10 }
                var rest = value
                if value >= divisor * 10 {
                    // Years past 9999 cannot occur (the initialiser refuses them), but never write a wrong digit.
                    for byte in String(value).utf8 { append(byte) }
                    return
                }
                while divisor > 0 {
                    append(UInt8(rest / divisor) + 0x30)
                    rest %= divisor
                    divisor /= 10
                }
            }
            append(f.year, width: 4)
            append(UInt8(ascii: "-"))
            append(f.month, width: 2)
            append(UInt8(ascii: "-"))
            append(f.day, width: 2)
            append(UInt8(ascii: " "))
            append(f.hour, width: 2)
            append(UInt8(ascii: ":"))
            append(f.minute, width: 2)
            append(UInt8(ascii: ":"))
            append(f.second, width: 2)
            if f.millisecond != 0 {
                append(UInt8(ascii: "."))
                append(f.millisecond, width: 3)
            }
            append(UInt8(ascii: "+"))
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "0"))
            return try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    package var description: String { postgresText }
}
