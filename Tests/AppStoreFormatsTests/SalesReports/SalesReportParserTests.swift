import AppStoreFormats
import Foundation
import Testing

/// Behaviour of `SalesReportParser` on fixtures written for one case each.
@Suite struct SalesReportParserTests {
    typealias Fixtures = SalesReportFixtures

    static func salesFile(_ rows: String...) -> String {
        ([Fixtures.sales18Header] + rows).joined(separator: "\n") + "\n"
    }

    // MARK: - Rows

    @Test func readsAnInAppPurchaseRowIntoCanonicalFields() throws {
        let parsed = Fixtures.parse(Self.salesFile(Fixtures.sales18Row()))
        #expect(parsed.layout == .sales(columnCount: 18))
        #expect(parsed.headerLines == [1])
        let row = try #require(parsed.row(atLine: 2))
        #expect(row.vendorIdentifier == "com.example.game.coins100")
        #expect(row.productType == .inAppPurchase)
        #expect(row.units == 3)
        #expect(row.proceedsPerUnit == ReportDecimal("0.70"))
        #expect(row.customerPrice?.tenThousandths == 9900)
        #expect(row.beginDate == CalendarDate(year: 2014, month: 3, day: 2))
        #expect(row.parentIdentifier == "GAME1")
        #expect(parsed.findings.isEmpty)
    }

    @Test func quarantinesShortRows() {
        let short = Fixtures.sales18Row().split(separator: "\t").prefix(16).joined(separator: "\t")
        let parsed = Fixtures.parse(Self.salesFile(Fixtures.sales18Row(), short, Fixtures.sales18Row()))
        #expect(parsed.rows.map(\.line) == [2, 4])
        #expect(
            parsed.rejections == [
                ReportRowIssue(line: 3, code: "short-row", message: "row has 16 fields, header has 18")
            ])
    }

    @Test func quarantinesLongRowsButAcceptsATrailingTab() {
        let parsed = Fixtures.parse(
            Self.salesFile(
                Fixtures.sales18Row() + "\tsurprise", Fixtures.sales18Row() + "\t", Fixtures.sales18Row() + "\t ")
        )
        #expect(
            parsed.rejections == [
                ReportRowIssue(line: 2, code: "long-row", message: "row has 19 fields, header has 18")
            ])
        #expect(parsed.rows.map(\.line) == [3, 4])
        #expect(parsed.rows.allSatisfy { $0.columns.count == 18 })
    }

    @Test func quarantinesUnitsThatAreNotAWholeNumber() {
        let parsed = Fixtures.parse(
            Self.salesFile(Fixtures.sales18Row(["Units": "3.5"]), Fixtures.sales18Row(["Units": " "])))
        #expect(parsed.rows.isEmpty)
        #expect(
            parsed.rejections == [
                ReportRowIssue(
                    line: 2, code: "invalid-number", message: "Units is not a whole number (\"3.5\")", column: "Units"),
                ReportRowIssue(line: 3, code: "invalid-number", message: "Units is empty", column: "Units"),
            ]
        )
    }

    @Test func quarantinesProceedsThatAreNotADecimal() throws {
        let parsed = Fixtures.parse(Self.salesFile(Fixtures.sales18Row(["Developer Proceeds": "0,70"])))
        let issue = try #require(parsed.rejections.first)
        #expect(issue.code == "invalid-number")
        #expect(issue.column == "Developer Proceeds")
        #expect(issue.message == "Developer Proceeds is not a decimal number with at most 4 decimal places (\"0,70\")")
    }

    @Test func quarantinesImpossibleDates() {
        let parsed = Fixtures.parse(
            Self.salesFile(
                Fixtures.sales18Row(["Begin Date": "02/30/2014", "End Date": "02/30/2014"]),
                Fixtures.sales18Row(["End Date": "2014/03/02"]),
                Fixtures.sales18Row(["Begin Date": "03/03/2014"]),
                Fixtures.sales18Row(["End Date": ""])
            )
        )
        #expect(parsed.rows.isEmpty)
        #expect(parsed.rejections.map(\.code) == ["invalid-date", "invalid-date", "invalid-date", "invalid-date"])
        #expect(
            parsed.rejections.map(\.message) == [
                "Begin Date is not a valid date (\"02/30/2014\")",
                "End Date is not a valid date (\"2014/03/02\")",
                "Begin Date 2014-03-03 is after End Date 2014-03-02",
                "End Date is empty",
            ]
        )
    }

    @Test func acceptsDatesPaddedWithSpaces() throws {
        let padded = Fixtures.sales18Row(["Begin Date": "08/23/2010          ", "End Date": " 08/29/2010 "])
        let row = try #require(Fixtures.parse(Self.salesFile(padded)).rows.first)
        #expect(row.beginDate == CalendarDate(year: 2010, month: 8, day: 23))
        #expect(row.endDate == CalendarDate(year: 2010, month: 8, day: 29))
        #expect(row.columns["Begin Date"] == "08/23/2010          ")
    }

    @Test func quarantinesRowsWithoutVendorIdentifierOrProductType() {
        let parsed = Fixtures.parse(
            Self.salesFile(Fixtures.sales18Row(["SKU": " "]), Fixtures.sales18Row(["Product Type Identifier": ""]))
        )
        #expect(
            parsed.rejections == [
                ReportRowIssue(line: 2, code: "missing-key", message: "SKU is empty", column: "SKU"),
                ReportRowIssue(
                    line: 3, code: "missing-key", message: "Product Type Identifier is empty",
                    column: "Product Type Identifier"
                ),
            ]
        )
    }

    @Test func quarantinesInvalidUtf8NamingTheColumn() {
        var bytes = Array(Self.salesFile(Fixtures.sales18Row(["Title": "Caf\u{E9}"])).utf8)
        // Replace the UTF-8 "é" (C3 A9) with a lone Latin-1 byte.
        let position = bytes.firstIndex(of: 0xC3) ?? 0
        bytes.replaceSubrange(position...(position + 1), with: [0xE9])
        let parsed = Fixtures.parse(bytes: bytes)
        #expect(
            parsed.rejections == [
                ReportRowIssue(line: 2, code: "invalid-utf8", message: "Title is not valid UTF-8", column: "Title")
            ])
    }

    @Test func keepsUtf8TitleOfTheIscreenRow() throws {
        // The iscreen sample's header repaired (its three joined names split again) and its row given the 22 fields
        // of that layout; the title bytes are the sample's.
        let header = Fixtures.sales18Header + "\tSubscription\tPeriod\tCategory\tCMB"
        let row = [
            "APPLE", "US", "usexy_20110907", "iScreen Corporation", "UP尤物 Magazine", "1.5.6", "1F", "1", "0",
            "12/29/2014", "12/29/2014", "TWD", "TW", "TWD", "469000514", "0", " ", " ", " ", " ", "Book", "",
        ].joined(separator: "\t")
        let parsed = Fixtures.parse(header + "\n" + row + "\n")
        #expect(parsed.layout == .sales(columnCount: 22))
        let stored = try #require(parsed.rows.first)
        #expect(stored.title == "UP尤物 Magazine")
        #expect(Array(try #require(stored.title).utf8) == Array("UP\u{5C24}\u{7269} Magazine".utf8))
        #expect(stored.category == "Book")
    }

    @Test func readsDecimalsWithoutLeadingZero() throws {
        // The first row of the 2010 Vollmer sample with the field it lost put back (ISAN blank).
        let header =
            try Fixtures.corpusBytes("sales_2010-06-01_27col_alexvollmer_report2.txt")
            .split(separator: UInt8(ascii: "\n")).first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let row =
            "APPLE\tUS\t1001\t \t \tMyCompany\tMyApp\t \t1\t1\t.97\t06/01/2010\t06/01/2010\tEUR\tFR\tEUR\t \t \t \t"
            + "123456789\t1.59\t \t \t \t \t \t "
        let parsed = Fixtures.parse(header + "\n" + row + "\n")
        let stored = try #require(parsed.rows.first)
        #expect(stored.proceedsPerUnit?.text == "0.97")
        #expect(stored.proceedsPerUnit?.tenThousandths == 9700)
        #expect(stored.columns["Royalty Price"] == ".97")
        #expect(stored.customerPrice?.text == "1.59")
    }

    @Test func keepsRefundsAsNegativeUnitsWithPositiveProceeds() throws {
        let refund = Fixtures.sales18Row(["Units": "-1", "Customer Price": "-0.99"])
        let row = try #require(Fixtures.parse(Self.salesFile(refund)).rows.first)
        #expect(row.units == -1)
        #expect(row.customerPrice?.text == "-0.99")
        #expect(row.proceedsPerUnit?.text == "0.70")
    }

    @Test func keepsUnknownProductTypeAsUnknown() throws {
        let row = try #require(
            Fixtures.parse(Self.salesFile(Fixtures.sales18Row(["Product Type Identifier": "IAZ"]))).rows.first)
        #expect(row.productTypeIdentifier == "IAZ")
        #expect(row.productType == .unknown)
    }

    @Test func keepsUnknownExtraColumnByName() throws {
        let header = Fixtures.sales18Header + "\tLoyalty Tier"
        let parsed = Fixtures.parse(header + "\n" + Fixtures.sales18Row() + "\tGold \n")
        #expect(parsed.layout == .sales(columnCount: 19))
        let row = try #require(parsed.rows.first)
        #expect(row.columns["Loyalty Tier"] == "Gold ")
        #expect(row.columns.last == ReportColumns.Column(name: "Loyalty Tier", value: "Gold "))
        #expect(row.columns.map(\.name) == parsed.columnNames)
        #expect(parsed.findingCodes == ["unfamiliar-column-count"])
        #expect(parsed.findings.first?.severity == .info)
    }

    @Test func mapsColumnsByNameNotPosition() throws {
        var names = Fixtures.sales18Header.split(separator: "\t").map(String.init)
        var values = Fixtures.sales18Row().split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        names.reverse()
        values.reverse()
        let parsed = Fixtures.parse(names.joined(separator: "\t") + "\n" + values.joined(separator: "\t") + "\n")
        let row = try #require(parsed.rows.first)
        #expect(row.vendorIdentifier == "com.example.game.coins100")
        #expect(row.units == 3)
        #expect(row.columns.first?.name == "Parent Identifier")
    }

    @Test func keepsQuotesAsLiteralCharacters() throws {
        let row = try #require(
            Fixtures.parse(Self.salesFile(Fixtures.sales18Row(["Title": "\"Big\" Coins, 100"]))).rows.first)
        #expect(row.title == "\"Big\" Coins, 100")
    }

    @Test func treatsBlankLinesAsBlankAnywhere() {
        let parsed = Fixtures.parse("\n  \n" + Fixtures.sales18Header + "\n\t\t\n" + Fixtures.sales18Row() + "\n\n")
        #expect(parsed.blankLines == [1, 2, 4, 6])
        #expect(parsed.headerLines == [3])
        #expect(parsed.rows.map(\.line) == [5])
    }

    @Test func readsAHeaderAfterAByteOrderMark() {
        let parsed = Fixtures.parse("\u{FEFF}" + Self.salesFile(Fixtures.sales18Row()))
        #expect(parsed.layout == .sales(columnCount: 18))
        #expect(parsed.columnNames.first == "Provider")
        #expect(parsed.rows.count == 1)
    }

    @Test func skipsARepeatedHeaderAndSaysSo() {
        let parsed = Fixtures.parse(
            Self.salesFile(Fixtures.sales18Row(), Fixtures.sales18Header, Fixtures.sales18Row()))
        #expect(parsed.headerLines == [1, 3])
        #expect(parsed.rows.map(\.line) == [2, 4])
        #expect(parsed.rejections.isEmpty)
        #expect(parsed.findingCodes == ["repeated-header"])
    }

    // MARK: - File-level findings

    @Test func reportsAnEmptyFile() {
        #expect(Fixtures.parse("").findingCodes == ["empty-file"])
        #expect(Fixtures.parse("\n \n").findingCodes == ["empty-file"])
    }

    @Test func reportsAHeaderOnlyFile() {
        let parsed = Fixtures.parse(Self.salesFile())
        #expect(parsed.layout == .sales(columnCount: 18))
        #expect(parsed.findingCodes == ["header-only"])
        #expect(parsed.findings.first?.severity == .info)
    }

    @Test func refusesDuplicateHeaderNames() throws {
        let header = Fixtures.sales18Header + "\tUnits"
        let parsed = Fixtures.parse(header + "\n" + Fixtures.sales18Row() + "\t4\n")
        #expect(parsed.rows.isEmpty)
        #expect(parsed.skippedLines == [2])
        #expect(parsed.findingCodes == ["duplicate-header"])
        let finding = try #require(parsed.findings.first)
        #expect(finding.severity == .error)
        #expect(finding.message.contains("column 8 \"Units\", column 19 \"Units\""))
    }

    @Test func refusesAHeaderNamingTheKeyTwice() throws {
        let header = Fixtures.sales18Header.replacingOccurrences(of: "Developer\t", with: "Vendor Identifier\t")
        let parsed = Fixtures.parse(header + "\n" + Fixtures.sales18Row() + "\n")
        #expect(parsed.findingCodes == ["duplicate-header"])
        #expect(parsed.findings.first?.message.contains("\"SKU\" and column 4 \"Vendor Identifier\"") == true)
    }

    @Test func refusesAnUnrecognisedHeader() throws {
        let parsed = Fixtures.parse("Date\tProduct\tCount\n2014-03-02\tcoins\t3\n2014-03-03\tcoins\t4\n")
        #expect(parsed.layout == .unknown)
        #expect(parsed.headerLines == [1])
        #expect(parsed.skippedLines == [2, 3])
        #expect(parsed.findingCodes == ["unrecognised-header"])
        var parser = SalesReportParser()
        _ = parser.consume(line: Array("Date\tProduct".utf8)[...], number: 1)
        #expect(parser.isSkippingRows)
        #expect(parsed.findings.first?.message.contains("2 data lines not parsed") == true)
    }

    @Test func reportsMissingRequiredColumnsByName() throws {
        let header = Fixtures.sales18Header.replacingOccurrences(of: "\tDeveloper Proceeds", with: "")
        let parsed = Fixtures.parse(header + "\n")
        #expect(parsed.findingCodes == ["missing-columns"])
        #expect(parsed.findings.first?.message.hasPrefix("header lacks required column \"Developer Proceeds\"") == true)
    }

    @Test func recognisesAPaymentsSummaryWithoutItsTitleLine() throws {
        let bytes = try Fixtures.corpusBytes("payments_2014-09_apple-slicer_financial_report.csv")
        let lines = Fixtures.lines(of: bytes).dropFirst(2).map { String(decoding: $0, as: UTF8.self) }
        let parsed = Fixtures.parse(lines.joined(separator: "\n"))
        #expect(parsed.layout == .paymentsSummary)
        #expect(parsed.headerLines == [1])
        #expect(
            parsed.rows.map { $0.columns["Region (Currency)"] } == [
                "Switzerland (CHF)", "Euro-Zone (EUR)", "Japan (JPY)",
            ])
    }

    // MARK: - Financial reports

    static func financialFile(rows: [String], trailer: [String]) -> String {
        ([Fixtures.financialHeader] + rows + trailer).joined(separator: "\n") + "\n"
    }

    @Test func reportsTotalRowsMismatchWithBothNumbers() throws {
        let rows = [
            Fixtures.financialRow(quantity: 3, extended: "2.10"), Fixtures.financialRow(quantity: 1, extended: "0.70"),
        ]
        let parsed = Fixtures.parse(
            Self.financialFile(rows: rows, trailer: ["Total_Rows\t3", "Total_Amount\t2.80", "Total_Units\t4"])
        )
        #expect(parsed.rows.count == 2)
        #expect(parsed.findingCodes == ["total-rows-mismatch"])
        let finding = try #require(parsed.findings.first)
        #expect(finding.message == "Total_Rows says 3, the file has 2 data rows (2 stored, 0 rejected)")
        #expect(finding.line == 4)
        #expect(finding.severity == .warning)
    }

    @Test func countsRejectedRowsAgainstTotalRows() {
        let rows = [
            Fixtures.financialRow(quantity: 3, extended: "2.10"), Fixtures.financialRow(quantity: 1, extended: "x"),
        ]
        let parsed = Fixtures.parse(
            Self.financialFile(rows: rows, trailer: ["Total_Rows\t2", "Total_Amount\t2.10", "Total_Units\t3"])
        )
        #expect(parsed.rejections.map(\.line) == [3])
        #expect(parsed.findings.isEmpty)
    }

    @Test func reportsTotalUnitsAndAmountThatDisagreeWithTheRows() throws {
        let rows = [
            Fixtures.financialRow(quantity: 3, extended: "2.10"),
            Fixtures.financialRow(quantity: -1, share: "0.70", extended: "-0.70", salesOrReturn: "R", price: "-0.99"),
        ]
        let parsed = Fixtures.parse(
            Self.financialFile(rows: rows, trailer: ["Total_Rows\t2", "Total_Amount\t1.50", "Total_Units\t5"])
        )
        #expect(parsed.findingCodes == ["total-units-mismatch", "total-amount-mismatch"])
        #expect(parsed.findings[0].severity == .warning)
        #expect(parsed.findings[0].message.contains("Total_Units says 5, the rows' quantities sum to 2"))
        #expect(parsed.findings[1].message == "Total_Amount says 1.50, the rows' Extended Partner Share sums to 1.40")
    }

    @Test func reportsAFinancialFileWithoutTrailer() {
        let parsed = Fixtures.parse(
            Self.financialFile(rows: [Fixtures.financialRow(quantity: 1, extended: "0.70")], trailer: []))
        #expect(parsed.rows.count == 1)
        #expect(parsed.findingCodes == ["missing-trailer"])
    }

    @Test func reportsATrailerValueThatIsNotANumber() {
        let parsed = Fixtures.parse(
            Self.financialFile(
                rows: [Fixtures.financialRow(quantity: 1, extended: "0.70")],
                trailer: ["Total_Rows\tone", "Total_Amount\t0.70", "Total_Units\t1"]
            )
        )
        #expect(parsed.trailers.count == 3)
        #expect(parsed.findingCodes == ["invalid-trailer", "missing-trailer"])
    }

    @Test func matchesApplesAlternateFinancialSpellings() throws {
        let header = Fixtures.financialHeader
            .replacingOccurrences(of: "Country Of Sale", with: "Country of Sale")
            .replacingOccurrences(of: "Pre-order Flag", with: "Preorder Flag")
            .replacingOccurrences(of: "ISRC/ISBN", with: "ISRC")
        let parsed = Fixtures.parse(
            header + "\n" + Fixtures.financialRow(quantity: 2, extended: "1.40") + "\nTotal_Rows\t1\nTotal_Units\t2\n"
        )
        #expect(parsed.layout == .financial)
        let row = try #require(parsed.rows.first)
        #expect(row.countryCode == "US")
        #expect(row.units == 2)
        #expect(row.columns["Country of Sale"] == "US")
        #expect(parsed.findings.isEmpty)
    }

    @Test func reportsAFinancialFileWithOnlyHeaderAndTrailer() {
        let parsed = Fixtures.parse(
            Self.financialFile(rows: [], trailer: ["Total_Rows\t0", "Total_Amount\t0", "Total_Units\t0"]))
        #expect(parsed.findingCodes == ["header-only"])
    }
}
