import ArgumentParser
import Foundation
import SyntheticData

/// `iap-audit generate receipts`: deterministic synthetic data for tests, benchmarks and the examples.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Write deterministic synthetic data (for benchmarks and examples).",
        subcommands: [Receipts.self])

    struct Receipts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a catalog, recorded receipts and a manifest of what was written.")

        @Option(help: "Output directory.")
        var out: String

        @Option(help: "Transaction entries to aim for (0: the small example preset).")
        var entries = 0

        @Option(help: "Random seed; the same seed writes the same bytes (default: the preset's).")
        var seed: UInt64?

        @Flag(help: "Write plain .jsonl instead of .jsonl.gz.")
        var plain = false

        @Flag(help: "Also write matching daily and weekly sales reports (with planted discrepancies) into reports/.")
        var withSales = false

        @Flag(help: "Also plant every fraud rule's pattern and FRAUD.md's false-positive traps (receipts/fraud/).")
        var withFraud = false

        func run() throws {
            var scenario = entries > 0 ? ReceiptScenario.benchmark(entries: entries) : ReceiptScenario.small
            if let seed { scenario.seed = seed }
            let manifest = try ReceiptDataGenerator(scenario: scenario).write(to: out, compress: !plain)
            if withFraud {
                let fraud = try FraudPatternWriter().write(to: out)
                print("planted \(fraud.planted.count) fraud patterns and \(fraud.traps.count) false-positive traps")
            }
            if withSales {
                let sales = try SalesReportGenerator().write(to: out, receipts: manifest)
                print(
                    "wrote \(sales.dailyFiles.count) daily and \(sales.weeklyFiles.count) weekly sales reports, "
                        + "\(sales.plants.count) planted discrepancies")
            }
            print(
                "wrote \(manifest.files.count) files: \(manifest.records) records (\(manifest.badRecords) bad), "
                    + "\(manifest.transactionEntries) transaction entries, \(manifest.distinctTransactions) distinct "
                    + "transactions")
        }
    }
}
