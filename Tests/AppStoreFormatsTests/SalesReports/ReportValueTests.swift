import AppStoreFormats
import Testing

@Suite struct ReportValueTests {
    @Test func decimalsGainALeadingZeroAndKeepTheirScale() throws {
        #expect(ReportDecimal(".97")?.text == "0.97")
        #expect(ReportDecimal(".97")?.tenThousandths == 9700)
        #expect(ReportDecimal("-.5")?.text == "-0.5")
        #expect(ReportDecimal("2.10")?.text == "2.10")
        #expect(ReportDecimal("+007.5")?.text == "7.5")
        #expect(ReportDecimal("-0.00")?.text == "0.00")
        #expect(ReportDecimal(" 119.00 ")?.tenThousandths == 1_190_000)
        #expect(ReportDecimal("11990")?.text == "11990")
        #expect(ReportDecimal("1.2345000")?.tenThousandths == 12345)
        #expect(ReportDecimal("2.1") == ReportDecimal("2.10"))
        #expect(try #require(ReportDecimal("-19.99")) < #require(ReportDecimal("0")))
        #expect(ReportDecimal(tenThousandths: -121_700).text == "-12.17")
        #expect(ReportDecimal(tenThousandths: 1_790_000).text == "179.00")
    }

    @Test(arguments: ["", " ", ".", "-", "1,99", "1.2.3", "abc", "1e3", "0.12345", "99999999999999999999"])
    func decimalRejectsWhatIsNotAnExactAmount(_ text: String) {
        #expect(ReportDecimal(text) == nil)
    }

    @Test func calendarDatesParseBothReportStyles() {
        #expect(CalendarDate("08/28/2010          ") == CalendarDate(year: 2010, month: 8, day: 28))
        #expect(CalendarDate("  2020-10-05") == CalendarDate(year: 2020, month: 10, day: 5))
        #expect(CalendarDate("2/7/2012") == CalendarDate(year: 2012, month: 2, day: 7))
        #expect(CalendarDate("02/29/2012")?.description == "2012-02-29")
    }

    @Test(arguments: [
        "02/30/2014", "02/29/2013", "13/01/2014", "00/10/2014", "2020-10-5", "10/05/20", "10-05-2020", "",
    ])
    func calendarDateRejectsImpossibleOrMalformedDates(_ text: String) {
        #expect(CalendarDate(text) == nil)
    }

    @Test func calendarDateArithmeticCrossesMonthsAndKnowsWeekdays() throws {
        let date = try #require(CalendarDate(year: 2010, month: 8, day: 29))
        #expect(date.weekday == 1)
        #expect(date.adding(days: 7).description == "2010-09-05")
        #expect(date.adding(days: -60).description == "2010-06-30")
        #expect(CalendarDate(year: 2000, month: 2, day: 29)?.adding(days: 366).description == "2001-03-01")
    }

    @Test func productTypesAreClassifiedAndUnknownCodesKept() {
        for code in ["IA1", "IA1-M", "FI1", "IA9", "IA9-M", "IAY", "IAY-M", "IAC"] {
            #expect(ReportProductType(code: code) == .inAppPurchase, "\(code)")
        }
        #expect(ReportProductType(code: "IA3") == .restoredInAppPurchase)
        for code in ["1", "1F", "1T", "F1", "1-B", "F1-B", "1E", "1EP", "1EU"] {
            #expect(ReportProductType(code: code) == .app, "\(code)")
        }
        #expect(["3", "3F"].map(ReportProductType.init(code:)) == [.redownload, .redownload])
        #expect(["7", "7F", "7T", "F7"].map(ReportProductType.init(code:)) == [.update, .update, .update, .update])
        #expect(ReportProductType(code: " IA1 ") == .inAppPurchase)
        #expect(ReportProductType(code: "IAZ") == .unknown)
        #expect(ReportProductType(code: "ia1") == .unknown)
    }
}
