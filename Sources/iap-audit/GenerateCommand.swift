import ArgumentParser
import Foundation
import IAPAudit

/// `iap-audit generate receipts`: deterministic synthetic data for tests, benchmarks and the examples.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate", abstract: "Write deterministic synthetic data (for benchmarks and examples).",
        subcommands: [Receipts.self, MonthEnd.self])

    /// Where both generators write, and whether they compress.
    struct Output: ParsableArguments {
        @Option(help: "Output directory.")
        var out: String

        @Flag(help: "Write plain .jsonl instead of .jsonl.gz.")
        var plain = false
    }

    struct Receipts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a catalog, recorded receipts and a manifest of what was written.")

        @OptionGroup var output: Output

        @Option(help: "Transaction entries to aim for (0: the small example preset).")
        var entries = 0

        @Option(help: "Random seed; the same seed writes the same bytes (default: the preset's).")
        var seed: UInt64?

        @Flag(help: "Also write matching daily and weekly sales reports (with planted discrepancies) into reports/.")
        var withSales = false

        @Flag(
            help: """
                Also plant every fraud rule's pattern and docs/fraud-rules.md's false-positive traps \
                (receipts/fraud/).
                """)
        var withFraud = false

        @Flag(
            name: .customLong("with-storekit2"),
            help: """
                Also write StoreKit 2 signed data in every shape (receipts/storekit2/), signed by a test chain of \
                the generator's own whose root is test-root.der, with planted verification failures and traps.
                """)
        var withStoreKit2 = false

        @Option(
            name: .customLong("storekit2-accounts"),
            help: "With --with-storekit2: how many StoreKit 2 accounts to simulate (default 24; benchmarks use more).")
        var storeKit2Accounts: Int?

        @Option(
            name: .customLong("receipt-data-length"),
            help: """
                Real-sized receipt blobs: about this many base64 characters of receipt_data each (real iOS 7 \
                receipts have thousands), most of them the same in every receipt, as a receipt's certificate chain \
                is (default: 96-240 random characters).
                """)
        var receiptDataLength: Int?

        func run() throws {
            try SyntheticDataSet.write(
                to: output.out, entries: entries, seed: seed, compress: !output.plain, withFraud: withFraud,
                withSales: withSales,
                withStoreKit2: withStoreKit2, storeKit2Accounts: storeKit2Accounts,
                receiptDataLength: receiptDataLength
            ) { print($0) }
        }
    }

    struct MonthEnd: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "month-end",
            abstract: "Write a fiscal year of the four month-end amounts with one planted difference of each cause.",
            discussion: """
                Signed StoreKit 2 purchases with prices (receipts/month-end/), Apple's daily sales reports, a \
                financial report per fiscal month and region and a Payments summary per fiscal month \
                (reports/month-end/), the root that verifies the purchases (month-end-root.der), their catalog \
                and month-end-manifest.json: each planted difference with the month, step and cause the bridge \
                shows it under.
                """)

        @OptionGroup var output: Output

        @Option(help: "Apple's fiscal year (2026: fiscal October 2025 through fiscal September 2026).")
        var fiscalYear: Int?

        @Option(help: "Random seed of the signing keys (default: the generator's).")
        var seed: UInt64?

        func validate() throws {
            if let fiscalYear, !(1972...9998).contains(fiscalYear) {
                throw ValidationError("--fiscal-year must be from 1972 to 9998, not \(fiscalYear)")
            }
        }

        func run() throws {
            try SyntheticDataSet.writeMonthEnd(
                to: output.out, fiscalYear: fiscalYear, seed: seed, compress: !output.plain
            ) { print($0) }
        }
    }
}
