/// Header lines of Apple's report layouts, tab-separated, for the report files tests write (the parser's tests and
/// the ingest tests build their files on the same headers).
package enum ReportHeaders {
    /// The SKU layout of 2010 (18 columns).
    package static let sales18 = sales18Columns.joined(separator: "\t")

    /// The SKU layout of 2011 (20 columns): the 18 plus Subscription and Period.
    package static let sales20 = (sales18Columns + ["Subscription", "Period"]).joined(separator: "\t")

    /// A Financial Report (22 columns, Total_ trailers after the rows).
    package static let financial = [
        "Start Date", "End Date", "UPC", "ISRC/ISBN", "Vendor Identifier", "Quantity", "Partner Share",
        "Extended Partner Share", "Partner Share Currency", "Sales or Return", "Apple Identifier",
        "Artist/Show/Developer/Author", "Title", "Label/Studio/Network/Developer/Publisher", "Grid",
        "Product Type Identifier", "ISAN/Other Identifier", "Country Of Sale", "Pre-order Flag", "Promo Code",
        "Customer Price", "Customer Currency",
    ].joined(separator: "\t")

    private static let sales18Columns = [
        "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier", "Units",
        "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code", "Currency of Proceeds",
        "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier",
    ]
}
