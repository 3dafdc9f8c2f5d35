import AppStoreFormats
import Testing

@Suite struct ReportFileNameTests {
    @Test func dailySalesNameGivesVendorAndDay() throws {
        let name = try #require(ReportFileName("S_D_85127269_20111122.txt.gz"))
        #expect(name.kind == .sales)
        #expect(name.frequency == .daily)
        #expect(name.vendorNumber == "85127269")
        #expect(name.year == 2011 && name.month == 11 && name.day == 22)
        #expect(name.region == nil)
        let day = try #require(CalendarDate(year: 2011, month: 11, day: 22))
        #expect(name.coveredDays == day...day)
    }

    @Test func weeklySalesNameCoversTheWeekEndingOnItsSunday() throws {
        let name = try #require(ReportFileName("/data/reports/S_W_85127269_20100829.txt"))
        #expect(name.frequency == .weekly)
        let monday = try #require(CalendarDate(year: 2010, month: 8, day: 23))
        let sunday = try #require(CalendarDate(year: 2010, month: 8, day: 29))
        #expect(name.coveredDays == monday...sunday)
    }

    @Test func weeklySalesNameOnAnotherDayThanSundayFollowsNoConvention() {
        #expect(ReportFileName("S_W_85127269_20100830.txt") == nil)
    }

    /// A monthly name covers its calendar month (February of a leap year here), a yearly one its calendar year.
    @Test(arguments: [
        ("S_M_85127269_201202.gz", ReportFileName.Frequency.monthly, 2012, 2 as Int?, 2, 29),
        ("S_Y_85127269_2014.txt", ReportFileName.Frequency.yearly, 2014, nil, 12, 31),
    ])
    func monthlyAndYearlySalesNamesCoverTheCalendarPeriod(
        file: String, frequency: ReportFileName.Frequency, year: Int, month: Int?, lastMonth: Int, lastDay: Int
    ) throws {
        let name = try #require(ReportFileName(file))
        #expect(name.frequency == frequency)
        #expect(name.year == year && name.month == month && name.day == nil)
        let first = try #require(CalendarDate(year: year, month: month ?? 1, day: 1))
        let last = try #require(CalendarDate(year: year, month: lastMonth, day: lastDay))
        #expect(name.coveredDays == first...last)
    }

    @Test func financialNameGivesFiscalMonthAndRegion() throws {
        let name = try #require(ReportFileName("45545510_0914_CH.txt"))
        #expect(name.kind == .financial)
        #expect(name.vendorNumber == "45545510")
        #expect(name.frequency == nil)
        #expect(name.year == 2014 && name.month == 9)
        #expect(name.region == "CH")
        #expect(name.coveredDays == nil)
        #expect(ReportFileName("45545510_1218_WW.txt.gz")?.year == 2018)
        #expect(ReportFileName("45545510_0914_EU.txt")?.region == "EU")
    }

    @Test func frequenciesOrderFinestFirst() {
        #expect([ReportFileName.Frequency.monthly, .daily, .yearly, .weekly].min() == .daily)
        #expect(ReportFileName.Frequency.weekly < .monthly)
    }

    @Test(arguments: [
        "sales_2010-08-28_18col_scsibug_DailySales.txt",
        "payments_2014-09_apple-slicer_financial_report.csv",
        "S_D_85127269_20110231.txt",  // 31 February
        "S_D_85127269_2011112.txt",  // date too short
        "S_X_85127269_20111122.txt",  // no such frequency
        "S_D_vendor_20111122.txt",
        "S_M_85127269_201213.txt",
        "45545510_1314_CH.txt",  // month 13
        "45545510_0914_switzerland.txt",
        "45545510_914_CH.txt",
        "",
    ])
    func nameFollowingNoConventionGivesNil(_ fileName: String) {
        #expect(ReportFileName(fileName) == nil)
    }
}
