/// Header lines of Apple's report layouts, tab-separated, for the report files tests write (the parser's tests and
/// the ingest tests build their files on the same headers).
package enum ReportHeaders {
    /// The SKU layout of 2010 (18 columns).
    package static let sales18 = sales18Columns.joined(separator: "\t")

    /// The SKU layout of 2011 (20 columns): the 18 plus Subscription and Period.
    package static let sales20 = (sales18Columns + ["Subscription", "Period"]).joined(separator: "\t")

    /// A Financial Report (22 columns, Total_ trailers after the rows).
    package static let financial = financialColumns.joined(separator: "\t")

    /// The detailed financial report of every region (`FINANCE_DETAIL`, region `Z1`), as a test sample: Apple's
    /// reference ("Financial report fields") names the financial columns and spells them as here ("ISRC / ISBN",
    /// "Sale or Return", "Artist / Show / Developer / Author"); its help ("Download financial reports") says the
    /// detailed report covers every region and "includes the transaction and settlement dates for purchases". Where
    /// the two dates stand, and that the fiscal Start and End Date give way to them, is this sample's assumption:
    /// the parser maps every column by name, so their place does not matter.
    package static let financeDetail =
        (["Transaction Date", "Settlement Date"]
        + financialColumns.dropFirst(2).map { referenceSpelling[$0] ?? $0 }).joined(separator: "\t")

    /// Apple's reference spells these columns with spaces around the slashes, and "Sale or Return".
    private static let referenceSpelling = [
        "ISRC/ISBN": "ISRC / ISBN", "Sales or Return": "Sale or Return",
        "Artist/Show/Developer/Author": "Artist / Show / Developer / Author",
        "Label/Studio/Network/Developer/Publisher": "Label / Studio / Network / Developer / Publisher",
        "ISAN/Other Identifier": "ISAN / Other Identifier",
    ]

    /// One purchase (`S`, quantity 1) or return (`R`, quantity -1) of a detailed financial report, in
    /// `financeDetail`'s columns; Partner Share is positive on both, as Apple documents.
    package static func financeDetailRow(
        transaction: String, settlement: String, vendor: String, saleOrReturn: String = "S", share: String = "0.70",
        price: String = "0.99", country: String = "US", currency: String = "USD"
    ) -> String {
        let isReturn = saleOrReturn == "R"
        return [
            transaction, settlement, "", vendor, vendor, isReturn ? "-1" : "1", share, (isReturn ? "-" : "") + share,
            currency, saleOrReturn, "1234567", "Example Inc.", "Item", "", "", "IA1", "", country, "", "",
            (isReturn ? "-" : "") + price, currency,
        ].joined(separator: "\t")
    }

    private static let financialColumns = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ]

    private static let sales18Columns = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
    ]
}
