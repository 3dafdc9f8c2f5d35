internal import CivilCalendar

/// A day in the proleptic Gregorian calendar, with no time or zone: the unit report periods are written in.
package struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, e.g. 2014.
    package let year: Int
    /// The month, 1 through 12.
    package let month: Int
    /// The day of the month, 1 through 28–31.
    package let day: Int

    /// Creates a date, or `nil` when the day does not exist (`2014-02-30`, month 13, year 0).
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CalendarDate.daysIn(month: month, year: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `MM/DD/YYYY` (report style, one-digit month and day allowed) or `YYYY-MM-DD`, ignoring surrounding spaces.
    package init?(_ text: String) {
        guard let date = CalendarDate.parse(Array(text.utf8)[...]) else { return nil }
        self = date
    }

    /// The date as `YYYY-MM-DD`.
    package var description: String {
        let monthText = month < 10 ? "0\(month)" : "\(month)"
        let dayText = day < 10 ? "0\(day)" : "\(day)"
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(monthText)-\(dayText)"
    }

    /// The day of the week: 1 is Sunday, 7 is Saturday (as Foundation's `Calendar` counts).
    package var weekday: Int {
        // Day 0 of the count, 1970-01-01, was a Thursday (weekday 5).
        let offset = (CalendarDate.dayNumber(year: year, month: month, day: day) + 4) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// The date `days` days later (earlier when negative).
    package func adding(days: Int) -> CalendarDate {
        CalendarDate(dayNumber: CalendarDate.dayNumber(year: year, month: month, day: day) + days)
    }

    /// Orders dates chronologically.
    package static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        CalendarMath.daysIn(month, year)
    }

    /// Days since 1970-01-01.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        CalendarMath.daysFromCivil(year: year, month: month, day: day)
    }

    /// The inverse of `dayNumber`; always a valid date.
    private init(dayNumber: Int) {
        (year, month, day) = CalendarMath.civilFromDays(dayNumber)
    }

    /// Parses report bytes without allocating: `MM/DD/YYYY` or `YYYY-MM-DD`, surrounding spaces ignored.
    static func parse(_ bytes: ArraySlice<UInt8>) -> CalendarDate? {
        let text = ReportBytes.trimmed(bytes)
        var index = text.startIndex
        func number() -> (value: Int, digits: Int) {
            var value = 0
            var digits = 0
            while index < text.endIndex, digits < 5, let digit = ReportBytes.digit(text[index]) {
                value = value * 10 + digit
                digits += 1
                index += 1
            }
            return (value, digits)
        }
        let first = number()
        guard index < text.endIndex else { return nil }
        let separator = text[index]
        guard separator == UInt8(ascii: "/") || separator == UInt8(ascii: "-") else { return nil }
        index += 1
        let second = number()
        guard index < text.endIndex, text[index] == separator else { return nil }
        index += 1
        let third = number()
        guard index == text.endIndex else { return nil }
        if separator == UInt8(ascii: "/") {
            guard (1...2).contains(first.digits), (1...2).contains(second.digits), third.digits == 4 else { return nil }
            return CalendarDate(year: third.value, month: first.value, day: second.value)
        }
        guard first.digits == 4, second.digits == 2, third.digits == 2 else { return nil }
        return CalendarDate(year: first.value, month: second.value, day: third.value)
    }
}
