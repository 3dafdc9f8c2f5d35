import Foundation
import SyntheticData
import Testing

/// `examples/` is generator output (`iap-audit generate receipts --out examples --plain --with-sales --with-fraud`);
/// the generator must keep writing exactly those bytes, or the examples are stale.
struct ShippedExamplesTests {
    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
    }

    @Test func generatorReproducesTheShippedExamples() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let receipts = try ReceiptDataGenerator(scenario: .small).write(to: directory.path, compress: false)
        _ = try FraudPatternWriter().write(to: directory.path)
        _ = try SalesReportGenerator().write(to: directory.path, receipts: receipts)
        let shipped = Self.examples
        let relativePaths = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") || $0.hasSuffix(".txt.gz") }
            .filter { $0 != "manifest.json" }
            .sorted()
        // Receipts and catalog, planted fraud and its manifest, daily and weekly reports and their manifest.
        #expect(relativePaths.count == 11 + 2 + 12 + 1)
        for path in relativePaths {
            let generated = try Data(contentsOf: directory.appendingPathComponent(path))
            let committed = try Data(contentsOf: shipped.appendingPathComponent(path))
            #expect(generated == committed, "examples/\(path) differs from what the generator writes now")
        }
    }
}
