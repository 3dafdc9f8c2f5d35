/// The texts of Apple's monthly files for a `MonthEndYear`: a financial report per fiscal month and region (22
/// tab-separated columns and the `Total_` trailers) and the "Payments and Financial Reports" summary (commas, as the
/// corpus sample `payments_2014-09_apple-slicer_financial_report.csv`).
enum MonthEndFinanceFiles {
    static let financialHeader = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ].joined(separator: "\t")

    /// The file name Apple gives the financial report of `month` for `storefront`'s region: `80012345_0926_US.txt`.
    static func financialName(_ month: MonthEndYear.Month, storefront: MonthEndYear.Storefront) -> String {
        let monthText = month.month < 10 ? "0\(month.month)" : "\(month.month)"
        return "\(MonthEndYear.vendorNumber)_\(monthText)\(month.year % 100)_\(storefront.reportRegion).txt"
    }

    static func financialReport(_ year: MonthEndYear, month index: Int, storefront: Int) -> String {
        let month = year.months[index]
        let shop = MonthEndYear.storefronts[storefront]
        let owed = year.owed(index)[storefront]
        func row(quantity: Int, extended: Int, kind: String, price: Int) -> String {
            [
                SalesReportFileWriter.reportDate(month.first), SalesReportFileWriter.reportDate(month.last), "", "",
                MonthEndYear.productID, String(quantity), MonthEndYear.money(shop.proceedsCents),
                MonthEndYear.money(extended), shop.currency, kind, MonthEndYear.appleID, "Example Inc.",
                MonthEndYear.productName, "", "", "IA1", "", shop.country, "", "", MonthEndYear.money(price),
                shop.currency,
            ].joined(separator: "\t")
        }
        var rows: [String] = []
        if owed.sales > 0 {
            rows.append(row(quantity: owed.sales, extended: owed.salesCents, kind: "S", price: shop.priceCents))
        }
        if owed.returns > 0 {
            rows.append(row(quantity: -owed.returns, extended: owed.returnCents, kind: "R", price: -shop.priceCents))
        }
        let trailer = [
            "Total_Rows\t\(rows.count)", "Total_Amount\t\(MonthEndYear.money(owed.salesCents + owed.returnCents))",
            "Total_Units\t\(owed.sales - owed.returns)",
        ]
        return ([financialHeader] + rows + trailer).joined(separator: "\n") + "\n"
    }

    /// `September, 2026`.
    static func monthTitle(_ month: MonthEndYear.Month) -> String {
        let names = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        return "\(names[month.month - 1]), \(month.year)"
    }

    static func paymentsSummary(_ year: MonthEndYear, month index: Int) -> String {
        let month = year.months[index]
        let regions = year.paid(index)
        func quoted(_ text: String) -> String { "\"\(text)\"" }
        var lines = [
            "\"iTunes Connect - Payments and Financial Reports\t(\(monthTitle(month)))\",,,,,,,,,,,,",
            ",,,,,,,,,,,,",
            "Region (Currency),Units Sold,Earned,Pre-Tax Subtotal,Input Tax,Adjustments,Withholding Tax,Total Owed,"
                + "Exchange Rate,Proceeds,Bank Account Currency,",
        ]
        for (storefront, region) in regions.enumerated() {
            let shop = MonthEndYear.storefronts[storefront]
            let fields = [
                String(region.units), MonthEndYear.money(region.earned), MonthEndYear.money(region.earned), "0",
                MonthEndYear.money(month.adjustments[storefront]), MonthEndYear.money(month.withholding[storefront]),
                MonthEndYear.money(region.totalOwed), MonthEndYear.rate(month.rate[storefront]),
                MonthEndYear.money(region.proceeds), MonthEndYear.bankCurrency,
            ].map(quoted)
            lines.append("\(shop.region) (\(shop.currency))," + fields.joined(separator: ",") + ",")
        }
        let total = regions.reduce(0) { $0 + $1.proceeds }
        lines += [
            ",,,,,,,,,,,,",
            ",,,,,,,,,,\(quoted(MonthEndYear.money(total))) \(MonthEndYear.bankCurrency),,",
            ",,,,,,,,,,Paid to EXAMPLE BANK -****0001,,",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
