import Foundation
import SyntheticData

/// The generated data the reconciliation tests share: the small example preset's receipts (compressed) and the
/// daily and weekly sales reports derived from them, with their planted discrepancies, written under `data/`.
struct GeneratedWorld {
    let directory: String
    let receipts: GenerationManifest
    let sales: SalesManifest

    /// Writes the world of receipt seed `seed` (1 has restores, upgrades, refunds, family sharing and sandbox
    /// receipts) into `test`'s scratch directory; the sales reports are always seed 3's.
    init(in test: TestWorkspace, seed: UInt64) throws {
        directory = test.directory.appendingPathComponent("data").path
        var scenario = ReceiptScenario.small
        scenario.seed = seed
        receipts = try ReceiptDataGenerator(scenario: scenario).write(to: directory, compress: true)
        sales = try SalesReportGenerator(seed: 3).write(to: directory, receipts: receipts)
    }

    /// The path of a file the manifests name.
    func path(_ relative: String) -> String { directory + "/" + relative }
}
