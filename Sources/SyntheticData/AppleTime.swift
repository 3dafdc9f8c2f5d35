internal import AppStoreFormats
internal import CivilCalendar

/// Calendar arithmetic on epoch milliseconds, including the US Pacific daylight-saving rules Apple's `_pst` fields
/// follow, done with integers so every platform formats the same instant the same way (and fast: no `DateFormatter`).
enum AppleTime {
    static let millisecondsPerDay: Int64 = 86_400_000
    static let millisecondsPerHour: Int64 = 3_600_000

    /// The civil date and time of day of an instant, in whatever zone the caller already shifted it to.
    struct Fields {
        var year: Int
        var month: Int
        var day: Int
        var hour: Int
        var minute: Int
        var second: Int
    }

    /// Days since 1970-01-01 of a civil date.
    static func epochDay(year: Int, month: Int, day: Int) -> Int64 {
        Int64(CalendarMath.daysFromCivil(year: year, month: month, day: day))
    }

    /// The civil date of a day count since 1970-01-01.
    static func civil(fromEpochDay epochDay: Int64) -> (year: Int, month: Int, day: Int) {
        CalendarMath.civilFromDays(Int(epochDay))
    }

    static func isLeapYear(_ year: Int) -> Bool {
        CalendarMath.isLeap(year)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Splits an instant (already shifted into the wanted zone) into civil fields.
    static func fields(_ milliseconds: Int64) -> Fields {
        let day = floorDivide(milliseconds, millisecondsPerDay)
        let secondOfDay = Int((milliseconds - day * millisecondsPerDay) / 1000)
        let date = civil(fromEpochDay: day)
        return Fields(
            year: date.year, month: date.month, day: date.day,
            hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60
        )
    }

    /// The UTC offset of America/Los_Angeles at an instant: −7 h in daylight time, −8 h otherwise.
    static func pacificOffset(at utcMilliseconds: Int64) -> Int64 {
        // The year is estimated from the mean Gregorian year. Near New Year the estimate may be one off, but then
        // neither year's March–November interval contains the instant, so the answer is the same.
        let estimate = 1970 + Int(floorDivide(utcMilliseconds, 31_556_952_000))
        let daylight =
            daylightTable.indices.contains(estimate - 1970)
            ? daylightTable[estimate - 1970] : pacificDaylightInterval(year: estimate)
        return daylight.contains(utcMilliseconds) ? -7 * millisecondsPerHour : -8 * millisecondsPerHour
    }

    /// Pacific daylight intervals for 1970–2199, computed once (dates before 1970 are never written).
    private static let daylightTable: [Range<Int64>] = (1970..<2200).map { pacificDaylightInterval(year: $0) }

    /// When Pacific daylight time is in force in `year`, in UTC milliseconds: from 02:00 standard time (10:00 UTC)
    /// to 02:00 daylight time (09:00 UTC) on the days the US rules of that year name.
    static func pacificDaylightInterval(year: Int) -> Range<Int64> {
        let startDay: Int64
        let endDay: Int64
        // The last Sunday of a month is the first Sunday on or after the 25th (April: 24th).
        let lastSundayOfOctober = firstSunday(onOrAfter: epochDay(year: year, month: 10, day: 25))
        switch year {
        case 2007...:
            startDay = firstSunday(onOrAfter: epochDay(year: year, month: 3, day: 1)) + 7
            endDay = firstSunday(onOrAfter: epochDay(year: year, month: 11, day: 1))
        case 1987...2006:
            startDay = firstSunday(onOrAfter: epochDay(year: year, month: 4, day: 1))
            endDay = lastSundayOfOctober
        case 1974:
            startDay = epochDay(year: 1974, month: 1, day: 6)  // The energy-crisis years.
            endDay = lastSundayOfOctober
        case 1975:
            startDay = epochDay(year: 1975, month: 2, day: 23)
            endDay = lastSundayOfOctober
        default:
            startDay = firstSunday(onOrAfter: epochDay(year: year, month: 4, day: 24))
            endDay = lastSundayOfOctober
        }
        return
            (startDay * millisecondsPerDay + 10 * millisecondsPerHour)..<(endDay * millisecondsPerDay
            + 9 * millisecondsPerHour)
    }

    /// The first Sunday on or after a day (1970-01-01 was a Thursday).
    static func firstSunday(onOrAfter epochDay: Int64) -> Int64 {
        let weekday = floorModulo(epochDay + 4, 7)  // 0 = Sunday
        return epochDay + (7 - weekday) % 7
    }

    /// The same time of day `months` calendar months later, the day clamped to the month's length (Jan 31 + 1 month
    /// is Feb 28), as App Store monthly renewals fall.
    static func adding(months: Int, to milliseconds: Int64) -> Int64 {
        let day = floorDivide(milliseconds, millisecondsPerDay)
        let timeOfDay = milliseconds - day * millisecondsPerDay
        let date = civil(fromEpochDay: day)
        let monthIndex = date.year * 12 + (date.month - 1) + months
        let year = monthIndex / 12
        let month = monthIndex % 12 + 1
        let clampedDay = min(date.day, daysInMonth(year: year, month: month))
        return epochDay(year: year, month: month, day: clampedDay) * millisecondsPerDay + timeOfDay
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int64, _ divisor: Int64) -> Int64 {
        value - floorDivide(value, divisor) * divisor
    }
}
