/// Apple's fiscal calendar for App Store payments, as its financial reports' dates show it: a fiscal year ends on
/// the last Saturday of September, each quarter is 5 + 4 + 4 weeks (months start on a Sunday), and a 53-week year
/// gives its extra week to fiscal December. Fiscal September 2014 is 2014-08-31 through 2014-09-27 (the corpus'
/// `45545510_0914_*` reports). Where stored financial reports state a month's dates, theirs win (docs/reconciliation.md).
package enum AppleFiscalCalendar {
    /// The days of fiscal `month` (1–12, named like calendar months: fiscal October is the first) of the fiscal
    /// year containing it, as its payments summary names it (`September, 2014`: fiscal year 2014, month 9;
    /// `October, 2014`: fiscal year 2015, month 10). `nil` for an impossible month or year.
    package static func days(year: Int, month: Int) -> ClosedRange<CalendarDate>? {
        guard (1...12).contains(month), (1971...9998).contains(year) else { return nil }
        let fiscalYear = month >= 10 ? year + 1 : year
        guard let previousEnd = yearEnd(fiscalYear - 1), let end = yearEnd(fiscalYear) else { return nil }
        let weeks = end.dayNumber - previousEnd.dayNumber == 371 ? 53 : 52
        // Fiscal months in order from October; index 2 is December.
        let position = (month + 2) % 12
        var start = previousEnd.adding(days: 1)
        for index in 0..<position {
            start = start.adding(days: 7 * weeksIn(position: index, yearWeeks: weeks))
        }
        return start...start.adding(days: 7 * weeksIn(position: position, yearWeeks: weeks) - 1)
    }

    /// The fiscal month (as `days(year:month:)` names it) a day belongs to.
    package static func month(of date: CalendarDate) -> (year: Int, month: Int)? {
        // A fiscal month starts at most six days before its calendar month and ends at most six days after it.
        for shift in [-1, 0, 1] {
            let index = date.year * 12 + (date.month - 1) + shift
            let (year, month) = (index / 12, index % 12 + 1)
            if let days = days(year: year, month: month), days.contains(date) { return (year, month) }
        }
        return nil
    }

    /// The last Saturday of September of `year`.
    static func yearEnd(_ year: Int) -> CalendarDate? {
        guard let last = CalendarDate(year: year, month: 9, day: 30) else { return nil }
        return last.adding(days: -((last.weekday % 7)))
    }

    private static func weeksIn(position: Int, yearWeeks: Int) -> Int {
        (position % 3 == 0 ? 5 : 4) + (position == 2 && yearWeeks == 53 ? 1 : 0)
    }
}

extension CalendarDate {
    /// Days since 1970-01-01.
    fileprivate var dayNumber: Int { CalendarDate.dayNumber(year: year, month: month, day: day) }
}
