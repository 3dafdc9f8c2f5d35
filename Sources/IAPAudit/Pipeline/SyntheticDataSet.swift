internal import SyntheticData

/// Deterministic synthetic data for benchmarks and the examples (`iap-audit generate receipts`).
package enum SyntheticDataSet {
    /// Writes a catalog, receipts and a manifest to `directory` (plus planted fraud patterns and sales reports when
    /// asked), handing `report` one summary line per part as soon as it is written.
    ///
    /// `entries` 0 means the small example preset; the same `seed` writes the same bytes. `receiptDataLength` makes
    /// receipt blobs real-sized (see `ReceiptScenario.receiptDataLength`).
    package static func write(
        to directory: String, entries: Int, seed: UInt64?, compress: Bool, withFraud: Bool, withSales: Bool,
        withStoreKit2: Bool = false, storeKit2Accounts: Int? = nil, receiptDataLength: Int? = nil,
        report: (String) -> Void
    ) throws {
        var scenario = entries > 0 ? ReceiptScenario.benchmark(entries: entries) : ReceiptScenario.small
        if let seed { scenario.seed = seed }
        scenario.receiptDataLength = receiptDataLength
        let manifest = try ReceiptDataGenerator(scenario: scenario).write(to: directory, compress: compress)
        if withFraud {
            let fraud = try FraudPatternWriter().write(to: directory)
            report("planted \(fraud.planted.count) fraud patterns and \(fraud.traps.count) false-positive traps")
        }
        if withSales {
            let sales = try SalesReportGenerator().write(to: directory, receipts: manifest)
            report(
                "wrote \(sales.dailyFiles.count) daily and \(sales.weeklyFiles.count) weekly sales reports, "
                    + "\(sales.plants.count) planted discrepancies")
        }
        if withStoreKit2 {
            var scenario = StoreKit2Scenario()
            if let seed { scenario.seed = seed }
            if let storeKit2Accounts { scenario.accounts = storeKit2Accounts }
            let signed = try SignedRecordWriter(scenario: scenario).write(to: directory, compress: compress)
            report(
                "wrote \(signed.records.count) StoreKit 2 records (\(signed.entries.count) JWS, "
                    + "\(signed.planted.count) planted failures, \(signed.traps.count) traps); trust "
                    + "\(signed.rootCertificate) to verify them")
        }
        report(
            "wrote \(manifest.files.count) files: \(manifest.records) records (\(manifest.badRecords) bad), "
                + "\(manifest.transactionEntries) transaction entries, \(manifest.distinctTransactions) distinct "
                + "transactions")
    }

    /// Writes a fiscal year of the four month-end amounts with one planted difference of each cause (receipts and
    /// reports under `month-end/` folders, `month-end-root.der`, `month-end-catalog.json`, `month-end-manifest.json`).
    package static func writeMonthEnd(
        to directory: String, fiscalYear: Int?, seed: UInt64?, compress: Bool, report: (String) -> Void
    ) throws {
        var writer = MonthEndYearWriter()
        if let fiscalYear { writer.fiscalYear = fiscalYear }
        if let seed { writer.seed = seed }
        let manifest = try writer.write(to: directory, compress: compress)
        report(
            "wrote fiscal year \(manifest.fiscalYear) (\(manifest.months.first?.month ?? "") to "
                + "\(manifest.months.last?.month ?? "")): \(manifest.files.count) files, \(manifest.plants.count) "
                + "planted differences; trust \(manifest.trustedRoot) to verify its transactions")
    }
}
