import Foundation
import Testing

@testable import SyntheticData

/// The month-end year's files agree with one another where they must (Apple's own sums), and `examples/` holds what
/// the generator writes now (`iap-audit generate month-end --out examples`; the signed file's signatures aside).
struct MonthEndYearWriterTests {
    @Test func everyPaymentsSummaryAddsUpAndOnlyThePlantedMoveLeavesThePrintedRate() throws {
        var year = try MonthEndYear(fiscalYear: 2026)
        year.plantEveryCause()
        for index in year.months.indices {
            let month = year.months[index]
            for (storefront, region) in year.paid(index).enumerated() {
                #expect(
                    region.totalOwed
                        == region.earned + month.adjustments[storefront] + month.withholding[storefront])
                let printed = MonthEndYear.convert(region.totalOwed, rate: month.rate[storefront])
                // Apple's proceeds follow its printed rate everywhere but the one planted exchange-rate move.
                let isMove = index == 11 && storefront == 1
                #expect((region.proceeds == printed) != isMove, "\(month.label) region \(storefront)")
            }
        }
        // Twelve fiscal months without a gap, September last, ending on the fiscal year's last Saturday.
        #expect(zip(year.months, year.months.dropFirst()).allSatisfy { $0.last + 1 == $1.first })
        #expect(year.months.last?.label == "2026-09")
    }

    @Test func theShippedExamplesAreWhatTheGeneratorWritesNow() throws {
        let directory = try TemporaryDirectory()
        let manifest = try MonthEndYearWriter().write(to: directory.path, compress: true)
        let unsigned = manifest.files.filter { !$0.hasPrefix("receipts/") } + ["month-end-manifest.json"]
        #expect(unsigned.count == 364 + 24 + 12 + 1)
        for path in unsigned {
            let generated = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + path))
            let shipped = try Data(contentsOf: ShippedExamplesTests.examples.appendingPathComponent(path))
            #expect(generated == shipped, "examples/\(path) differs from what the generator writes now")
        }
    }
}
