import Foundation
import SyntheticData
import Testing

/// `examples/` is generator output (`iap-audit generate receipts --out examples --plain --with-sales --with-fraud
/// --with-storekit2`); the generator must keep writing exactly those bytes (signed files: those payloads), or the
/// examples are stale.
struct ShippedExamplesTests {
    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
    }

    @Test func generatorReproducesTheShippedExamples() throws {
        let directory = try TemporaryDirectory()
        let receipts = try directory.writeReceipts()
        _ = try FraudPatternWriter().write(to: directory.path)
        _ = try SalesReportGenerator().write(to: directory.path, receipts: receipts)
        let signed = try SignedRecordWriter(scenario: StoreKit2Scenario()).write(to: directory.path, compress: false)
        let shipped = Self.examples
        let relativePaths = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") || $0.hasSuffix(".txt.gz") }
            .filter { $0 != "manifest.json" && !signed.files.contains($0) }
            .sorted()
        // Receipts and catalog, planted fraud and its manifest, daily and weekly reports and their manifest, the
        // StoreKit 2 manifest.
        #expect(relativePaths.count == 11 + 2 + 12 + 1 + 1)
        for path in relativePaths {
            let generated = try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + path))
            let committed = try Data(contentsOf: shipped.appendingPathComponent(path))
            #expect(generated == committed, "examples/\(path) differs from what the generator writes now")
        }
    }

    /// ECDSA signs with a random draw, so signed files are never the same bytes twice: the shipped StoreKit 2 files
    /// must hold the payloads the generator signs now, in the same places, and verify against the shipped root with
    /// exactly the outcomes the shipped manifest gives (the planted failures fail, everything else verifies).
    @Test func shippedStoreKit2ExamplesAreTheGeneratorsPayloadsAndVerifyAgainstTheShippedRoot() throws {
        let directory = try TemporaryDirectory()
        let signed = try SignedRecordWriter(scenario: StoreKit2Scenario()).write(to: directory.path, compress: false)
        #expect(signed.files.count == 4)
        let generated = try SignedRecordWriterTests.read(signed.files, in: directory.path)
        let shipped = try SignedRecordWriterTests.read(signed.files, in: Self.examples.path)
        #expect(try SignedRecordWriterTests.payloads(shipped) == SignedRecordWriterTests.payloads(generated))
        try SignedRecordWriterTests.expectOutcomes(of: shipped, signed, rootIn: Self.examples.path)
    }
}
