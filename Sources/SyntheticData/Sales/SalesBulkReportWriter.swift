/// Writes large daily Sales and Trends reports for throughput benchmarks: realistic rows (28 columns, many
/// products, storefronts and prices, multi-member gzip) not tied to any receipts.
package struct SalesBulkReportWriter: Sendable {
    /// Rows to write in total.
    package var rows: Int
    /// Daily files to spread them over.
    package var days: Int
    /// Seeds every value.
    package var seed: UInt64

    /// Creates a writer.
    package init(rows: Int, days: Int, seed: UInt64 = 11) {
        self.rows = rows
        self.days = max(1, days)
        self.seed = seed
    }

    private static let storefronts = [
        ("US", "USD"), ("GB", "GBP"), ("DE", "EUR"), ("FR", "EUR"), ("JP", "JPY"), ("CA", "CAD"), ("AU", "AUD"),
        ("CH", "CHF"), ("SE", "SEK"), ("MX", "MXN"), ("BR", "BRL"), ("IN", "INR"), ("KR", "KRW"), ("CN", "CNY"),
    ]
    private static let types = ["IA1", "IA1", "IA1", "IAY", "IAY", "IA9", "IA3", "1F", "7F", "3F"]

    /// Writes `reports/S_D_<vendor>_<day>.txt.gz` under `directory`, one per day from `startDay`; returns the files.
    package func write(
        to directory: String, startDay: CalendarDay = .defaultStart, vendorNumber: String = "80099999"
    )
        throws -> [String]
    {
        try ReceiptFileWriter.createDirectory(directory + "/reports")
        var rng = SeededGenerator(seed: seed)
        var files: [String] = []
        for index in 0..<days {
            let day = startDay.epochDay + Int64(index)
            let name = "reports/S_D_\(vendorNumber)_\(SalesReportFileWriter.nameDate(day)).txt.gz"
            let file = try SalesReportFileWriter(path: directory + "/" + name, rowsPerMember: 20_000)
            let date = SalesReportFileWriter.reportDate(day)
            let count = rows * (index + 1) / days - rows * index / days
            for _ in 0..<count {
                let product = rng.nextInt(below: 400)
                let (country, currency) = Self.storefronts[rng.nextInt(below: Self.storefronts.count)]
                let type = Self.types[product % Self.types.count]
                let cents = 99 + 100 * (product % 30)
                let units = rng.chance(0.02) ? -1 : 1 + rng.nextInt(below: 20)
                let price = "\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)"
                let proceedsCents = cents * 7 / 10
                let proceeds = "\(proceedsCents / 100).\(proceedsCents % 100 < 10 ? "0" : "")\(proceedsCents % 100)"
                try file.append(
                    SalesReportFileWriter.Row(
                        sku: "com.example.bulk\(product / 20).item\(product)", title: "Bulk item \(product)",
                        productType: type, units: units, proceeds: proceeds, customerCurrency: currency,
                        country: country, proceedsCurrency: currency, customerPrice: units < 0 ? "-" + price : price,
                        parent: "BULKAPP\(product / 20)"),
                    begin: date, end: date)
            }
            try file.close()
            files.append(name)
        }
        return files
    }
}
