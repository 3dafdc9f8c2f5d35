import AppStoreFormats
import Foundation
import TestSupport
import Testing

/// Apple's "Payments and Financial Reports" summary read typed, and Apple's own arithmetic checked on it (issue 33):
/// the real sample passes; a copy with one wrong cent fails with a finding naming the check and the line.
@Suite struct PaymentsSummaryTests {
    typealias Fixtures = SalesReportFixtures
    static let sample = "payments_2014-09_apple-slicer_financial_report.csv"

    /// Parses `bytes` as ingest does: the parser, and the payments reader beside it.
    static func read(_ bytes: [UInt8]) -> (reader: PaymentsSummaryReader, results: [ReportLineResult]) {
        var parser = SalesReportParser()
        var reader = PaymentsSummaryReader()
        var results: [ReportLineResult] = []
        for (index, line) in Fixtures.lines(of: bytes).enumerated() {
            var result = parser.consume(line: line, number: index + 1)
            if parser.layout == .paymentsSummary { result = reader.observe(result, line: line) }
            results.append(result)
        }
        return (reader, results)
    }

    static func sampleText() throws -> String {
        String(decoding: try Fixtures.corpusBytes(sample), as: UTF8.self)
    }

    @Test func theRealSamplePassesEveryCheck() throws {
        let (reader, _) = Self.read(try Fixtures.corpusBytes(Self.sample))
        #expect(reader.findings() == [])
        #expect(reader.fiscalMonth?.year == 2014 && reader.fiscalMonth?.month == 9)
        #expect(reader.regions.map(\.region) == ["Switzerland", "Euro-Zone", "Japan"])
        #expect(reader.regions.map(\.currency) == ["CHF", "EUR", "JPY"])
        let japan = try #require(reader.regions.last)
        #expect(japan.withholdingTax == PaymentsDecimal("-37"))
        #expect(japan.totalOwed == PaymentsDecimal("142"))
        #expect(japan.exchangeRate?.description == "0.00817")
        #expect(japan.proceeds == PaymentsDecimal("1.16"))
        #expect(japan.bankCurrency == "EUR")
        #expect(reader.paid.map(\.amount) == [PaymentsDecimal("234.58")])
        #expect(reader.paid.first?.currency == "EUR")
        #expect(reader.paid.first?.paidTo == "Paid to FICTIONAL BANK -****1299")
    }

    @Test func oneWrongCentInProceedsFailsTheProceedsAndPaidChecks() throws {
        let edited = try Self.sampleText().replacingOccurrences(of: "\"26.53\"", with: "\"26.54\"")
        let (reader, _) = Self.read(Array(edited.utf8))
        #expect(reader.findings().map(\.code) == ["payments-proceeds-mismatch", "payments-paid-total-mismatch"])
        let finding = try #require(reader.findings().first)
        #expect(finding.line == 4)
        #expect(finding.message.contains("Switzerland (CHF): Proceeds is 26.54"), "\(finding.message)")
        #expect(finding.message.contains("rounds to 26.53"), "\(finding.message)")
    }

    @Test func oneWrongCentInTotalOwedFailsTheTotalOwedCheck() throws {
        let edited = try Self.sampleText().replacingOccurrences(
            of: "\"206.89\",\"1.00000\"", with: "\"206.90\",\"1.00000\"")
        let (reader, _) = Self.read(Array(edited.utf8))
        // Proceeds 206.89 no longer follows from a Total Owed of 206.90 at 1.00000 either.
        #expect(reader.findings().map(\.code) == ["payments-total-owed-mismatch", "payments-proceeds-mismatch"])
        #expect(reader.findings().first?.line == 5)
    }

    @Test func theWithholdingTaxIsADeductionWhateverItsPrintedSign() throws {
        let positive = try Self.sampleText().replacingOccurrences(of: "\"-37\"", with: "\"37\"")
        #expect(Self.read(Array(positive.utf8)).reader.findings() == [])
        let notDeducted = try Self.sampleText().replacingOccurrences(of: "\"-37\",\"142\"", with: "\"-37\",\"179\"")
        #expect(
            Self.read(Array(notDeducted.utf8)).reader.findings().map(\.code).first == "payments-total-owed-mismatch")
    }

    @Test func theRatesPrintedPrecisionWidensTheCentsOnlyWhereItMatters() throws {
        // 1,000,000 × 0.80030: the printed rate stands for 0.800295 ..< 0.800305, i.e. 800,295 to 800,305.
        let range = try #require(
            Self.range(totalOwed: "1000000", rate: "0.80030"))
        #expect(range.lowerBound == PaymentsDecimal("800295.00"))
        #expect(range.upperBound == PaymentsDecimal("800305.00"))
        // A small total: one cent value only. 33.15 × 0.80030 = 26.529945 → 26.53.
        let small = try #require(Self.range(totalOwed: "33.15", rate: "0.80030"))
        #expect(small.lowerBound == PaymentsDecimal("26.53") && small.upperBound == PaymentsDecimal("26.53"))
    }

    static func range(totalOwed: String, rate: String) -> ClosedRange<PaymentsDecimal>? {
        guard let total = PaymentsDecimal(totalOwed), let rate = PaymentsDecimal(rate) else { return nil }
        return PaymentsSummaryReader.proceedsRange(totalOwed: total, rate: rate)
    }

    @Test func aRegionThatCannotBeReadIsRejectedWithItsReasonAndTheRestRead() throws {
        let edited = try Self.sampleText()
            .replacingOccurrences(of: "\"0.80030\"", with: "\"0,8OO3\"")
            .replacingOccurrences(of: "Japan (JPY)", with: "Japan")
        let (reader, results) = Self.read(Array(edited.utf8))
        let rejected = results.compactMap { if case .rejected(let issue) = $0 { issue } else { nil } }
        #expect(rejected.map(\.line) == [4, 6])
        #expect(rejected.map(\.code) == ["invalid-number", "invalid-value"])
        #expect(rejected.first?.column == "Exchange Rate")
        #expect(reader.regions.map(\.region) == ["Euro-Zone"])
        #expect(reader.rejectedRowCount == 2)
        // The paid footer no longer matches what could be read: said, not hidden.
        #expect(reader.findings().map(\.code) == ["payments-paid-total-mismatch"])
    }

    @Test func aTitleWithoutAMonthIsAFinding() throws {
        let edited = try Self.sampleText().replacingOccurrences(of: "\t(September, 2014)", with: "")
        #expect(Self.read(Array(edited.utf8)).reader.findings().map(\.code) == ["payments-month-unknown"])
        #expect(PaymentsSummaryReader.month(inTitle: "Reports (Sep 2014)")?.month == 9)
        #expect(PaymentsSummaryReader.month(inTitle: "Reports (Smarch, 2014)") == nil)
    }

    @Test func decimalsAreExact() throws {
        #expect(PaymentsDecimal("1,234.50") == PaymentsDecimal("1234.5"))
        #expect(PaymentsDecimal("0.00817")?.scale == 5)
        #expect(PaymentsDecimal("-0.005")?.rounded(toPlaces: 2).description == "-0.01")
        #expect(PaymentsDecimal("0.004")?.rounded(toPlaces: 2).description == "0.00")
        let rate = try #require(PaymentsDecimal("0.00817"))
        #expect(PaymentsDecimal("142")?.multiplied(by: rate)?.description == "1.16014")
        for bad in ["", "-", "1.2.3", "1e5", "12a", ",5", "1.0000000000001"] {
            #expect(PaymentsDecimal(bad) == nil, "\(bad)")
        }
    }
}
