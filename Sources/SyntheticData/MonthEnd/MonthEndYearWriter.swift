internal import Foundation

/// Writes a consistent fiscal year of the four month-end amounts with one planted difference of each cause
/// (`MonthEndYear`, `MonthEndYear+Plants.swift`):
///
/// - `receipts/month-end/transactions.jsonl[.gz]`: every purchase as our server recorded it, a StoreKit 2 signed
///   transaction with its price, and the later copies that refund it (or reverse the refund);
/// - `reports/month-end/`: Apple's daily sales reports, a financial report per fiscal month and region, and a
///   Payments summary per fiscal month;
/// - `month-end-root.der`, the root that verifies the transactions (trust it with `--trusted-root`),
///   `month-end-catalog.json` and `month-end-manifest.json` (what was planted, and where the bridge shows it).
package struct MonthEndYearWriter {
    /// Apple's fiscal year: 2026 is fiscal October 2025 through fiscal September 2026.
    package var fiscalYear: Int
    package var seed: UInt64

    package init(fiscalYear: Int = 2026, seed: UInt64 = 20_260_926) {
        self.fiscalYear = fiscalYear
        self.seed = seed
    }

    package func write(to directory: String, compress: Bool) throws -> MonthEndManifest {
        var year = try MonthEndYear(fiscalYear: fiscalYear)
        year.plantEveryCause()
        let receipts = "receipts/month-end"
        let reports = "reports/month-end"
        for folder in [receipts, reports] { try ReceiptFileWriter.createDirectory(directory + "/" + folder) }
        let start = year.months[0].first * AppleTime.millisecondsPerDay
        let chain = try SigningChain(seed: seed, start: start)
        var files: [String] = []

        let transactions = receipts + "/transactions.jsonl" + (compress ? ".gz" : "")
        let file = try ReceiptFileWriter(path: directory + "/" + transactions, compress: compress)
        for line in try MonthEndTransactions.lines(year, chain: chain) { try file.append(Array((line + "\n").utf8)) }
        try file.close()
        files.append(transactions)

        for day in year.months[0].first...year.months[11].last {
            let name = "\(reports)/S_D_\(MonthEndYear.vendorNumber)_\(SalesReportFileWriter.nameDate(day)).txt.gz"
            let file = try SalesReportFileWriter(path: directory + "/" + name)
            let units = year.appleUnits(on: day)
            let date = SalesReportFileWriter.reportDate(day)
            for (index, shop) in MonthEndYear.storefronts.enumerated() {
                var row = SalesReportFileWriter.Row(
                    sku: MonthEndYear.productID, title: MonthEndYear.productName, productType: "IA1",
                    units: units.sales[index], proceeds: MonthEndYear.money(shop.proceedsCents),
                    customerCurrency: shop.currency, country: shop.country, proceedsCurrency: shop.currency,
                    customerPrice: MonthEndYear.money(shop.priceCents), parent: MonthEndYear.appSKU)
                if row.units > 0 { try file.append(row, begin: date, end: date) }
                // A refund is a row of negative units at a negative customer price, as Apple reports one.
                row.units = -units.refunds[index]
                row.customerPrice = MonthEndYear.money(-shop.priceCents)
                if row.units < 0 { try file.append(row, begin: date, end: date) }
            }
            try file.close()
            files.append(name)
        }

        var months: [MonthEndManifest.Month] = []
        for (index, month) in year.months.enumerated() {
            for storefront in MonthEndYear.storefronts.indices {
                let name =
                    reports + "/"
                    + MonthEndFinanceFiles.financialName(
                        month, storefront: MonthEndYear.storefronts[storefront])
                try write(MonthEndFinanceFiles.financialReport(year, month: index, storefront: storefront), to: name)
                files.append(name)
            }
            let summary = "\(reports)/financial_report_\(month.label).csv"
            try write(MonthEndFinanceFiles.paymentsSummary(year, month: index), to: summary)
            files.append(summary)
            months.append(
                MonthEndManifest.Month(
                    month: month.label, begin: SalesReportFileWriter.isoDate(month.first),
                    end: SalesReportFileWriter.isoDate(month.last),
                    paid: MonthEndYear.money(year.paid(index).reduce(0) { $0 + $1.proceeds })))
        }
        try ReceiptFileWriter.writeFile(directory + "/month-end-root.der", bytes: chain.rootDER)
        try write(Self.catalog, to: "month-end-catalog.json")

        let manifest = MonthEndManifest(
            fiscalYear: fiscalYear, bankCurrency: MonthEndYear.bankCurrency, months: months, plants: year.plants,
            files: files, trustedRoot: "month-end-root.der", catalog: "month-end-catalog.json")
        try ReceiptFileWriter.writeManifest(directory + "/month-end-manifest.json", manifest)
        return manifest

        func write(_ text: String, to name: String) throws {
            try ReceiptFileWriter.writeFile(directory + "/" + name, bytes: Array(text.utf8))
        }
    }

    /// The one app and product the year sells, as the example catalog names them.
    static let catalog = """
        {"apps": [{"bundle_id": "\(MonthEndYear.appBundleID)", "apple_id": "\(MonthEndYear.appleID)", \
        "sku": "\(MonthEndYear.appSKU)", "name": "Coin Quest"}],
         "products": [{"product_id": "\(MonthEndYear.productID)", "bundle_id": "\(MonthEndYear.appBundleID)", \
        "type": "consumable", "name": "\(MonthEndYear.productName)"}]}

        """
}
