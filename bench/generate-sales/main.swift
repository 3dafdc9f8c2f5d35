// The benchmarks' data generator entry point (kept out of the iap-audit CLI, which users see):
//
//   generate-sales reconcile-data DIR ENTRIES DAYS   receipts (ENTRIES transaction entries over DAYS days), the
//                                                    catalog, and matching daily and weekly sales reports
//   generate-sales bulk-reports DIR ROWS DAYS        ROWS report rows over DAYS daily files, for ingest throughput
import Foundation
import SyntheticData

let arguments = CommandLine.arguments
guard arguments.count == 5, let size = Int(arguments[3]), let days = Int(arguments[4]), size > 0, days > 0 else {
    FileHandle.standardError.write(
        Data("usage: generate-sales reconcile-data|bulk-reports DIR ENTRIES|ROWS DAYS\n".utf8))
    exit(64)
}
let directory = arguments[2]
do {
    switch arguments[1] {
    case "reconcile-data":
        var scenario = ReceiptScenario.benchmark(entries: size)
        scenario.days = days
        scenario.filesPerDay = 1
        let receipts = try ReceiptDataGenerator(scenario: scenario).write(to: directory, compress: true)
        let sales = try SalesReportGenerator(seed: 5).write(to: directory, receipts: receipts)
        print(
            "receipts: \(receipts.transactionEntries) entries, \(receipts.distinctTransactions) distinct transactions; "
                + "reports: \(sales.dailyFiles.count) daily, \(sales.weeklyFiles.count) weekly, "
                + "\(sales.dailySaleRows) in-app rows, \(sales.plants.count) planted discrepancies")
    case "bulk-reports":
        let files = try SalesBulkReportWriter(rows: size, days: days).write(to: directory)
        print("reports: \(files.count) daily files, \(size) rows")
    default:
        FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("generate-sales: \(error)\n".utf8))
    exit(70)
}
