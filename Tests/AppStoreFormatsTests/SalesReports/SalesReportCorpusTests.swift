import AppStoreFormats
import TestSupport
import Testing

/// What each real sample in `Tests/Fixtures/corpus/sales` yields (see `Tests/Fixtures/corpus/PROVENANCE.md`).
@Suite struct SalesReportCorpusTests {
    typealias Fixtures = SalesReportFixtures

    static let coveredFiles = [
        "45545510_0914_CH.txt",
        "45545510_0914_EU.txt",
        "45545510_0914_JP.txt",
        "S_D_85127269_20111122.txt",
        "S_D_85127269_20120207.txt",
        "financial_2020_appstore-sdk-go_financial.tsv",
        "payments_2014-09_apple-slicer_financial_report.csv",
        "sales_2009-08-31_27col_alexvollmer_report.txt",
        "sales_2010-06-01_27col_alexvollmer_report2.txt",
        "sales_2010-08-28_18col_scsibug_DailySales.txt",
        "sales_2010-08-28_27col_scsibug_SampleDailySalesOldFmt.txt",
        "sales_2010-08-29_18col_weekly_scsibug_WeeklySales.txt",
        "sales_2014-12-29_22col_iscreen_reports.csv",
        "sales_2015-02-28_22col_mizoR_data.tsv",
        "sales_2020-10-05_28col_appstore-sdk-go_sales.tsv",
        "subscriber_2020-10_appstore-sdk-go_subscribers.tsv",
        "subscription-event_2020-10_appstore-sdk-go_subscriptions-events.tsv",
        "subscription_2020-10_appstore-sdk-go_subscriptions.tsv",
    ]

    /// The covered files that are here: all but the unlicensed Tippr reports when `../shared/corpus` is absent.
    static var availableFiles: [String] { coveredFiles.filter(Fixtures.isAvailable) }

    @Test func everyCorpusFileHasATestBelow() throws {
        #expect(try Fixtures.corpusFileNames() == Self.availableFiles)
    }

    @Test func everyCorpusFileIsReadWithoutLosingALine() throws {
        for name in Self.availableFiles {
            let bytes = try Fixtures.corpusBytes(name)
            let parsed = Fixtures.parse(bytes: bytes)
            // Every line is accounted for as exactly one result, numbered in order.
            #expect(parsed.results.map(\.line) == Array(1...Fixtures.lines(of: bytes).count), "\(name)")
        }
    }

    // MARK: - Financial reports

    @Test func swissFinancialReportStoresFourRowsAndAgreesWithItsTrailer() throws {
        let parsed = try Fixtures.parseCorpusFile("45545510_0914_CH.txt")
        #expect(parsed.layout == .financial)
        #expect(parsed.rows.map(\.line) == [2, 3, 4, 5])
        #expect(parsed.rejections.isEmpty)
        #expect(parsed.trailers.map(\.name) == ["Total_Rows", "Total_Amount", "Total_Units"])
        #expect(parsed.trailers.map(\.line) == [6, 7, 8])
        #expect(parsed.findings.isEmpty)

        let first = try #require(parsed.row(atLine: 2))
        #expect(first.vendorIdentifier == "Example App 1")
        #expect(first.productTypeIdentifier == "1F")
        #expect(first.productType == .app)
        #expect(first.units == 16)
        #expect(first.proceedsPerUnit?.text == "1.30")
        #expect(first.extendedProceeds?.text == "20.80")
        #expect(first.proceedsCurrency == "CHF")
        #expect(first.salesOrReturn == "S")
        #expect(first.customerPrice?.text == "2.00")
        #expect(first.customerCurrency == "CHF")
        #expect(first.countryCode == "CH")
        #expect(first.appleIdentifier == "283459501")
        #expect(first.beginDate == CalendarDate(year: 2014, month: 8, day: 31))
        #expect(first.endDate == CalendarDate(year: 2014, month: 9, day: 27))
        #expect(first.promoCode == nil)
        #expect(first.columns["UPC"] == "")
        #expect(parsed.row(atLine: 5)?.productType == .app)

        let name = try #require(ReportFileName("45545510_0914_CH.txt"))
        #expect(name.kind == .financial && name.vendorNumber == "45545510" && name.region == "CH")
        #expect(name.year == 2014 && name.month == 9)
    }

    @Test func euroFinancialReportKeepsTheReturnAndExplainsItsUnitTotal() throws {
        let parsed = try Fixtures.parseCorpusFile("45545510_0914_EU.txt")
        #expect(parsed.layout == .financial)
        #expect(parsed.rows.count == 6)
        #expect(parsed.rejections.isEmpty)

        let refund = try #require(parsed.row(atLine: 2))
        #expect(refund.units == -1)
        #expect(refund.proceedsPerUnit?.text == "12.17")
        #expect(refund.extendedProceeds?.text == "-12.17")
        #expect(refund.salesOrReturn == "R")
        #expect(refund.isReturn)
        #expect(refund.customerPrice?.text == "-19.99")
        #expect(parsed.row(atLine: 3)?.promoCode == "CR")
        #expect(parsed.rows.map(\.units).reduce(0, +) == 19)

        // Total_Units is 20: the sales-only sum. Informational, not an error; Total_Rows and Total_Amount agree.
        #expect(parsed.findingCodes == ["total-units-mismatch"])
        let finding = try #require(parsed.findings.first)
        #expect(finding.severity == .info)
        #expect(finding.line == 10)
        #expect(finding.message.contains("Total_Units says 20, the rows' quantities sum to 19"))
        #expect(finding.message.contains("sales rows only"))
    }

    @Test func japaneseFinancialReportMatchesATotalAmountWithoutDecimals() throws {
        let parsed = try Fixtures.parseCorpusFile("45545510_0914_JP.txt")
        #expect(parsed.layout == .financial)
        #expect(parsed.rows.map(\.line) == [2, 3])
        #expect(parsed.rows.map { $0.proceedsPerUnit?.text } == ["119.00", "60.00"])
        #expect(parsed.rows.map(\.proceedsCurrency) == ["JPY", "JPY"])
        #expect(parsed.trailers.first { $0.name == "Total_Amount" }?.value == "179")
        #expect(parsed.findings.isEmpty)
    }

    @Test func financialReportFromTheApiStubStoresSubscriptionRows() throws {
        let parsed = try Fixtures.parseCorpusFile("financial_2020_appstore-sdk-go_financial.tsv")
        #expect(parsed.layout == .financial)
        #expect(parsed.rows.map(\.line) == [2, 3])
        #expect(parsed.rows.allSatisfy { $0.productType == .inAppPurchase && $0.productTypeIdentifier == "IAY" })
        #expect(parsed.rows.map(\.units) == [1, 5])
        #expect(parsed.rows.map { $0.extendedProceeds?.text } == ["3.15", "31.50"])
        // The period is a year, not a real fiscal month; it is kept as written.
        #expect(parsed.rows[0].beginDate == CalendarDate(year: 2020, month: 10, day: 5))
        #expect(parsed.rows[0].endDate == CalendarDate(year: 2021, month: 10, day: 5))
        #expect(parsed.trailers.count == 3)
        #expect(parsed.findings.isEmpty)
        #expect(ReportFileName("financial_2020_appstore-sdk-go_financial.tsv") == nil)
    }

    @Test func paymentsSummaryIsRecognisedAndItsRegionsKeptAsColumns() throws {
        let parsed = try parseClean("payments_2014-09_apple-slicer_financial_report.csv", layout: .paymentsSummary)
        #expect(parsed.headerLines == [1, 3])
        #expect(parsed.blankLines == [2, 7, 10, 11])
        #expect(parsed.rows.map(\.line) == [4, 5, 6])
        #expect(parsed.columnNames.prefix(3) == ["Region (Currency)", "Units Sold", "Earned"])

        let swiss = try #require(parsed.row(atLine: 4))
        #expect(swiss.columns["Region (Currency)"] == "Switzerland (CHF)")
        #expect(swiss.columns["Units Sold"] == "29")
        #expect(swiss.columns["Exchange Rate"] == "0.80030")
        #expect(swiss.columns["Proceeds"] == "26.53")
        #expect(swiss.vendorIdentifier.isEmpty)
        #expect(parsed.row(atLine: 6)?.columns["Withholding Tax"] == "-37")

        #expect(parsed.trailers.map(\.line) == [8, 9])
        #expect(parsed.trailers.map(\.value) == ["234.58 EUR", "Paid to FICTIONAL BANK -****1299"])
    }

    // MARK: - Sales reports, 27 columns

    @Test func vollmer2009ReportStoresFourRowsWithSingleSpaceBlanks() throws {
        let parsed = try parseClean("sales_2009-08-31_27col_alexvollmer_report.txt", layout: .sales27)
        #expect(parsed.rows.map(\.line) == [2, 3, 4, 5])
        #expect(parsed.rows.map(\.productType) == [.app, .update, .update, .update])

        let first = try #require(parsed.row(atLine: 2))
        #expect(first.vendorIdentifier == "1234")
        #expect(first.title == "EvriVerse")
        #expect(first.proceedsPerUnit?.text == "0")
        #expect(first.proceedsCurrency == "USD")
        #expect(first.appleIdentifier == "312716560")
        #expect(first.beginDate == CalendarDate(year: 2009, month: 8, day: 31))
        #expect(first.promoCode == nil)
        #expect(first.parentIdentifier == nil)
        #expect(first.columns["UPC"] == " ")
        #expect(first.columns.count == 27)
        #expect(parsed.row(atLine: 5)?.countryCode == "AR")
    }

    @Test func vollmerShiftedReportQuarantinesEveryShortRow() throws {
        let parsed = try Fixtures.parseCorpusFile("sales_2010-06-01_27col_alexvollmer_report2.txt")
        #expect(parsed.layout == .sales27)
        #expect(parsed.rows.isEmpty)
        #expect(parsed.rejections.map(\.line) == [2, 3, 4, 5])
        #expect(parsed.rejections.allSatisfy { $0.code == "short-row" })
        #expect(
            parsed.rejections.map(\.message) == [
                "row has 26 fields, header has 27", "row has 26 fields, header has 27",
                "row has 26 fields, header has 27", "row has 20 fields, header has 27",
            ]
        )
        // The rows were there, only unreadable: not a header-only file, but one that contributes nothing.
        #expect(parsed.findingCodes == ["all-rows-rejected"])
        #expect(parsed.findings.first?.message == "all 4 data rows were rejected, so the file contributes no rows")
    }

    @Test func scsibugOldFormatStoresThirtyRowsWithPromoCodes() throws {
        let parsed = try parseClean("sales_2010-08-28_27col_scsibug_SampleDailySalesOldFmt.txt", layout: .sales27)
        #expect(parsed.rows.count == 30)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 53)
        #expect(parsed.row(atLine: 3)?.promoCode == "CR-RW")
        #expect(parsed.row(atLine: 2)?.promoCode == nil)
        let nzd = try #require(parsed.row(atLine: 15))
        #expect(nzd.customerCurrency == "NZD" && nzd.proceedsCurrency == "AUD")
    }

    // MARK: - Sales reports, SKU layouts

    @Test func scsibugDailyReportReadsSpacePaddedDates() throws {
        let parsed = try parseClean("sales_2010-08-28_18col_scsibug_DailySales.txt", layout: .sales(columnCount: 18))
        #expect(parsed.rows.count == 50)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 100)
        #expect(parsed.rows.filter { $0.productTypeIdentifier == "7F" }.count == 3)
        #expect(parsed.rows.filter { $0.productType == .update }.count == 3)

        let first = try #require(parsed.row(atLine: 2))
        #expect(first.beginDate == CalendarDate(year: 2010, month: 8, day: 28))
        #expect(first.endDate == CalendarDate(year: 2010, month: 8, day: 28))
        #expect(first.columns["Begin Date"] == "08/28/2010          ")
        #expect(first.promoCode == "CR-RW")
        #expect(first.parentIdentifier == nil)
        #expect(first.columns["Parent Identifier"] == "")
        #expect(parsed.rows.last?.beginDate == CalendarDate(year: 2010, month: 9, day: 9))
    }

    @Test func scsibugWeeklyReportCoversMondayToSunday() throws {
        let parsed = try parseClean(
            "sales_2010-08-29_18col_weekly_scsibug_WeeklySales.txt", layout: .sales(columnCount: 18))
        #expect(parsed.rows.count == 16)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 58)
        let first = try #require(parsed.row(atLine: 2))
        #expect(first.beginDate == CalendarDate(year: 2010, month: 8, day: 23))
        #expect(first.endDate == CalendarDate(year: 2010, month: 8, day: 29))
        #expect(first.endDate?.weekday == 1)
        // The last row's Parent Identifier is a stray "e" (a hand edit); it is kept as written.
        #expect(parsed.rows.last?.parentIdentifier == "e")
    }

    // The two Tippr reports state no licence: not shipped, read from ../shared/corpus when it is there.
    @Test(.enabled(if: TestCorpus.hasUnlicensedSamples, "unlicensed sample, only in ../shared/corpus (absent)"))
    func tipprReportOf2011StoresFourRowsWithOriginalName() throws {
        let parsed = try parseClean("S_D_85127269_20111122.txt", layout: .sales(columnCount: 20))
        #expect(parsed.rows.map(\.line) == [2, 3, 4, 5])
        #expect(parsed.rows.map(\.productType) == [.update, .app, .update, .app])
        #expect(parsed.rows.map(\.units) == [1, 35, 8, 2])
        let first = try #require(parsed.row(atLine: 2))
        #expect(first.vendorIdentifier == "com.poweredbytippr.225besteats")
        #expect(first.subscription == nil && first.period == nil)
        #expect(first.columns["Subscription"] == " ")

        let name = try #require(ReportFileName("S_D_85127269_20111122.txt"))
        #expect(name.kind == .sales && name.frequency == .daily && name.vendorNumber == "85127269")
        let day = try #require(CalendarDate(year: 2011, month: 11, day: 22))
        #expect(name.coveredDays == day...day)
    }

    @Test(.enabled(if: TestCorpus.hasUnlicensedSamples, "unlicensed sample, only in ../shared/corpus (absent)"))
    func tipprReportOf2012StoresFiveRowsIncludingCanada() throws {
        let parsed = try parseClean("S_D_85127269_20120207.txt", layout: .sales(columnCount: 20))
        #expect(parsed.rows.map(\.line) == [2, 3, 4, 5, 6])
        let canada = try #require(parsed.row(atLine: 3))
        #expect(canada.vendorIdentifier == "com.poweredbytippr.q-pond")
        #expect(canada.countryCode == "CA" && canada.customerCurrency == "CAD" && canada.proceedsCurrency == "CAD")
        #expect(ReportFileName("S_D_85127269_20120207.txt")?.day == 7)
    }

    @Test func iscreenReportWithJoinedHeaderNamesIsRefusedAsAWhole() throws {
        let parsed = try Fixtures.parseCorpusFile("sales_2014-12-29_22col_iscreen_reports.csv")
        #expect(parsed.layout == .sales(columnCount: 20))
        #expect(parsed.rows.isEmpty)
        #expect(parsed.rejections.isEmpty)
        #expect(parsed.skippedLines == [2])
        #expect(parsed.findingCodes == ["missing-columns"])
        let finding = try #require(parsed.findings.first)
        #expect(finding.severity == .error)
        #expect(finding.line == 1)
        #expect(finding.message.contains("\"Product Type Identifier\", \"Units\""))
        #expect(finding.message.contains("column 6 \"Version Product Type Identifier Units\""))
        #expect(finding.message.contains("1 data line not parsed"))
    }

    @Test func mizoReportKeepsCategoryAndTrulyEmptyCmb() throws {
        let parsed = try parseClean("sales_2015-02-28_22col_mizoR_data.tsv", layout: .sales(columnCount: 22))
        #expect(parsed.rows.map(\.line) == [2, 3])
        #expect(parsed.rows.map(\.category) == ["Lifestyle", "Social Networking"])
        #expect(parsed.rows.map(\.customerCurrency) == ["JPY", "JPY"])
        #expect(parsed.rows.map(\.columns["CMB"]) == ["", ""])
        #expect(parsed.rows.map(\.columns["Promo Code"]) == [" ", " "])
    }

    @Test func appStoreApiSalesReportStoresSubscriptionRenewals() throws {
        let parsed = try parseClean("sales_2020-10-05_28col_appstore-sdk-go_sales.tsv", layout: .sales(columnCount: 28))
        #expect(parsed.rows.count == 46)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 716)
        #expect(parsed.rows.filter { $0.productType == .inAppPurchase }.count == 16)
        #expect(parsed.rows.filter { $0.productType == .redownload }.count == 16)
        #expect(parsed.rows.filter { $0.productType == .app }.count == 9)
        #expect(parsed.rows.filter { $0.productType == .update }.count == 5)

        let renewal = try #require(parsed.row(atLine: 2))
        #expect(renewal.productTypeIdentifier == "IAY")
        #expect(renewal.subscription == "Renewal" && renewal.period == "7 Days")
        #expect(renewal.parentIdentifier == "foo.bar.baz")
        #expect(renewal.preservedPricing == "Yes")
        #expect(renewal.device == "iPhone")
        #expect(renewal.proceedsPerUnit?.text == "209.30")
        #expect(parsed.row(atLine: 10)?.orderType == "Pay As You Go Intro Offer")
        #expect(parsed.row(atLine: 4)?.subscription == "New")
        // Free rows with a single-space Currency of Proceeds.
        let blankCurrencyLines = [5, 7, 9, 12, 14, 20, 34, 41, 47]
        #expect(blankCurrencyLines.allSatisfy { parsed.row(atLine: $0)?.proceedsCurrency == nil })
        #expect(parsed.row(atLine: 5)?.columns["Currency of Proceeds"] == " ")
        let introOffer = try #require(parsed.row(atLine: 21))
        #expect(introOffer.units == 0)
        #expect(introOffer.customerPrice?.text == "-85.43")
    }

    // MARK: - Subscription reports

    @Test func subscriptionReportStoresFortyNineOfferRows() throws {
        let parsed = try parseClean("subscription_2020-10_appstore-sdk-go_subscriptions.tsv", layout: .subscription)
        #expect(parsed.rows.count == 49)
        let first = try #require(parsed.row(atLine: 2))
        #expect(first.beginDate == nil)
        #expect(first.title == "foo.bar.baz")
        #expect(first.appleIdentifier == "1234567890")
        #expect(first.customerPrice?.text == "2950.00")
        #expect(first.proceedsPerUnit?.text == "2065.00")
        #expect(first.proceedsCurrency == "RUB")
        #expect(first.countryCode == "RU")
        #expect(first.columns["Promotional Offer Name"] == " ")
        #expect(first.columns["Active Standard Price Subscriptions"] == "20")
    }

    @Test func subscriptionEventReportStoresEventsWithIsoDates() throws {
        let parsed = try parseClean(
            "subscription-event_2020-10_appstore-sdk-go_subscriptions-events.tsv", layout: .subscriptionEvent)
        #expect(parsed.rows.count == 49)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 120)
        #expect(parsed.rows.filter { $0.columns["Event"] == "Renew" }.count == 23)
        let first = try #require(parsed.row(atLine: 2))
        #expect(first.beginDate == CalendarDate(year: 2020, month: 10, day: 6))
        #expect(first.endDate == first.beginDate)
        #expect(first.columns["Original Start Date"] == "2020-07-25")
        #expect(parsed.row(atLine: 3)?.units == 42)
    }

    @Test func subscriberReportKeepsTheRefundRow() throws {
        let parsed = try parseClean("subscriber_2020-10_appstore-sdk-go_subscribers.tsv", layout: .subscriber)
        #expect(parsed.rows.count == 48)
        #expect(parsed.rows.map(\.units).reduce(0, +) == 47)
        let refund = try #require(parsed.row(atLine: 46))
        #expect(refund.columns["Refund"] == "Yes")
        #expect(refund.columns["Purchase Date"] == "2020-09-30")
        #expect(refund.units == 0)
        #expect(refund.customerPrice?.text == "-85.43")
        #expect(refund.beginDate == CalendarDate(year: 2020, month: 10, day: 5))
    }

    /// Parses a sample that must read cleanly: in `layout`, no row rejected, no finding.
    private func parseClean(
        _ name: String, layout: ReportLayout, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ParsedSalesReport {
        let parsed = try Fixtures.parseCorpusFile(name)
        #expect(parsed.layout == layout, sourceLocation: sourceLocation)
        #expect(parsed.rejections.isEmpty, sourceLocation: sourceLocation)
        #expect(parsed.findings.isEmpty, sourceLocation: sourceLocation)
        return parsed
    }
}
