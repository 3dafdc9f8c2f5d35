import AppStoreFormats
import Foundation
import TestSupport
import Testing

/// The detailed financial report (`FINANCE_DETAIL`, region `Z1`): one row per purchase, dated by its transaction and
/// its settlement, read on a sample built from Apple's documented columns (`ReportHeaders.financeDetail`).
struct FinanceDetailReportTests {
    typealias Fixtures = SalesReportFixtures

    static func file(_ rows: [String], trailer: [String] = []) -> String {
        ([ReportHeaders.financeDetail] + rows + trailer).joined(separator: "\n") + "\n"
    }

    @Test func readsEachPurchaseWithItsTransactionAndSettlementDates() throws {
        let parsed = Fixtures.parse(
            Self.file([
                ReportHeaders.financeDetailRow(
                    transaction: "09/30/2025", settlement: "10/02/2025", vendor: "com.example.coins"),
                ReportHeaders.financeDetailRow(
                    transaction: "10/03/2025", settlement: "10/05/2025", vendor: "com.example.coins",
                    saleOrReturn: "R"),
            ]))
        #expect(parsed.layout == .financeDetail)
        #expect(parsed.layout?.name == "finance-detail")
        #expect(parsed.rejections.isEmpty && parsed.findings.isEmpty, "\(parsed.rejections) \(parsed.findings)")
        let sale = try #require(parsed.row(atLine: 2))
        #expect(sale.vendorIdentifier == "com.example.coins")
        #expect(sale.productType == .inAppPurchase)
        #expect(sale.units == 1 && sale.salesOrReturn == "S" && sale.countryCode == "US")
        #expect(sale.proceedsPerUnit?.text == "0.70" && sale.extendedProceeds?.text == "0.70")
        // The purchase covers the day it was made; Apple settled it later.
        #expect(sale.beginDate?.description == "2025-09-30" && sale.endDate?.description == "2025-09-30")
        #expect(sale.settlementDate?.description == "2025-10-02")
        let refund = try #require(parsed.row(atLine: 3))
        #expect(refund.units == -1 && refund.isReturn && refund.extendedProceeds?.text == "-0.70")
        #expect(refund.settlementDate?.description == "2025-10-05")
    }

    @Test func quarantinesAPurchaseWithoutAValidSettlementDate() {
        let parsed = Fixtures.parse(
            Self.file([
                ReportHeaders.financeDetailRow(transaction: "10/01/2025", settlement: "10/32/2025", vendor: "a.b"),
                ReportHeaders.financeDetailRow(transaction: "10/01/2025", settlement: " ", vendor: "a.b"),
                ReportHeaders.financeDetailRow(transaction: "10/01/2025", settlement: "10/02/2025", vendor: "a.b"),
            ]))
        #expect(parsed.rows.map(\.line) == [4])
        #expect(parsed.rejections.map(\.line) == [2, 3])
        #expect(parsed.rejections.allSatisfy { $0.reason == .invalidDate && $0.column == "Settlement Date" })
    }

    @Test func aHeaderWithoutTheTransactionDateIsNotRead() throws {
        let header = ReportHeaders.financeDetail.replacingOccurrences(of: "Transaction Date", with: "Order Date")
        let row = ReportHeaders.financeDetailRow(transaction: "10/01/2025", settlement: "10/02/2025", vendor: "a.b")
        let parsed = Fixtures.parse(header + "\n" + row + "\n")
        #expect(parsed.layout == .financeDetail)
        #expect(parsed.rows.isEmpty)
        let finding = try #require(parsed.findings.first)
        #expect(finding.code == "missing-columns")
        #expect(finding.message.contains("\"Transaction Date\""))
    }

    @Test func checksTotalsOnlyWhenTheReportHasThem() {
        let rows = [ReportHeaders.financeDetailRow(transaction: "10/01/2025", settlement: "10/02/2025", vendor: "a.b")]
        #expect(Fixtures.parse(Self.file(rows)).findings.isEmpty)
        let wrong = Fixtures.parse(Self.file(rows, trailer: ["Total_Rows\t2", "Total_Units\t1", "Total_Amount\t0.70"]))
        #expect(wrong.trailers.count == 3)
        #expect(wrong.findingCodes == ["total-rows-mismatch"])
    }

    /// Apple's reference spells the financial report's column "Sale or Return"; its files have said "Sales or
    /// Return". Either is the same column.
    @Test func aFinancialReportMaySayEitherSaleOrReturnOrSalesOrReturn() throws {
        let header = ReportHeaders.financial.replacingOccurrences(of: "Sales or Return", with: "Sale or Return")
        let row = Fixtures.financialRow(quantity: -1, extended: "-0.70", salesOrReturn: "R", price: "-0.99")
        let parsed = Fixtures.parse(header + "\n" + row + "\nTotal_Rows\t1\n")
        #expect(parsed.layout == .financial)
        let stored = try #require(parsed.rows.first)
        #expect(stored.isReturn && stored.settlementDate == nil)
    }
}
