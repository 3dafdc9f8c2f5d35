/// A day of the proleptic Gregorian calendar in UTC, such as `2014-03-01`.
package struct CalendarDay: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The year, 1970 or later.
    package let year: Int
    /// The month, 1–12.
    package let month: Int
    /// The day of the month, 1–31 as the month allows.
    package let day: Int

    /// Creates a day, or nil when the date does not exist (or is before 1970).
    package init?(year: Int, month: Int, day: Int) {
        guard year >= 1970, year <= 9999, (1...12).contains(month),
            day >= 1, day <= AppleTime.daysInMonth(year: year, month: month)
        else { return nil }
        self.init(checkedYear: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`, or returns nil.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// 2014-03-01: iOS 7 app receipts and iOS 6 transaction receipts were both in use then.
    package static let defaultStart = CalendarDay(checkedYear: 2014, month: 3, day: 1)

    /// Days since 1970-01-01.
    var epochDay: Int64 {
        AppleTime.epochDay(year: year, month: month, day: day)
    }

    /// The day `offset` days later.
    func adding(days offset: Int) -> CalendarDay {
        let civil = AppleTime.civil(fromEpochDay: epochDay + Int64(offset))
        return CalendarDay(checkedYear: civil.year, month: civil.month, day: civil.day)
    }

    /// `YYYY-MM-DD`.
    package var description: String {
        var text = String(year)
        text += month < 10 ? "-0\(month)" : "-\(month)"
        text += day < 10 ? "-0\(day)" : "-\(day)"
        return text
    }

    /// Decodes the `YYYY-MM-DD` text form.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD day: \(text)")
        }
        self = day
    }

    /// Encodes the `YYYY-MM-DD` text form.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
