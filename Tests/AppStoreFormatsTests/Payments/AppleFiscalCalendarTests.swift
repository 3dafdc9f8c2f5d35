import AppStoreFormats
import Testing

/// Apple's fiscal months: 5-4-4 weeks a quarter from the Sunday after the last Saturday of September.
@Suite struct AppleFiscalCalendarTests {
    static func days(_ year: Int, _ month: Int) -> String {
        guard let days = AppleFiscalCalendar.days(year: year, month: month) else { return "nil" }
        return "\(days.lowerBound)...\(days.upperBound)"
    }

    @Test func fiscalSeptember2014IsTheCorpusReportsPeriod() {
        // 45545510_0914_CH.txt: 08/31/2014 through 09/27/2014.
        #expect(Self.days(2014, 9) == "2014-08-31...2014-09-27")
        #expect(Self.days(2014, 10) == "2014-09-28...2014-11-01")
        #expect(Self.days(2014, 11) == "2014-11-02...2014-11-29")
        #expect(Self.days(2014, 12) == "2014-11-30...2014-12-27")
        #expect(Self.days(2015, 1) == "2014-12-28...2015-01-31")
    }

    @Test func aFiftyThreeWeekYearGivesItsExtraWeekToDecember() {
        // Fiscal 2023 ran from 2022-09-25 to 2023-09-30: 53 weeks, its first quarter 14 (Apple's 10-K).
        #expect(Self.days(2022, 10) == "2022-09-25...2022-10-29")
        #expect(Self.days(2022, 12) == "2022-11-27...2022-12-31")
        #expect(Self.days(2023, 1) == "2023-01-01...2023-02-04")
        #expect(Self.days(2023, 9) == "2023-09-03...2023-09-30")
    }

    @Test func everyDayBelongsToExactlyOneFiscalMonth() throws {
        var day = try #require(CalendarDate(year: 2013, month: 9, day: 29))
        let last = try #require(CalendarDate(year: 2026, month: 12, day: 31))
        var previous: (year: Int, month: Int)?
        while day <= last {
            let month = try #require(AppleFiscalCalendar.month(of: day), "\(day)")
            let days = try #require(AppleFiscalCalendar.days(year: month.year, month: month.month))
            #expect(days.contains(day))
            if let previous, previous != month {
                // Months follow each other without a gap: a new month starts on a Sunday.
                #expect(day.weekday == 1 && days.lowerBound == day, "\(day)")
            }
            previous = month
            day = day.adding(days: 1)
        }
    }
}
