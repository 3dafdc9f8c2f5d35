import Foundation
import Testing

@testable import SyntheticData

/// Output-level behaviour: determinism, layout, compression, manifest file, scenario checks.
struct ReceiptDataGeneratorTests {
    @Test func sameSeedGivesSameBytes() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let manifestA = try ReceiptDataGenerator(scenario: .small).write(to: first.path, compress: false)
        let manifestB = try ReceiptDataGenerator(scenario: .small).write(to: second.path, compress: false)
        #expect(manifestA == manifestB)
        let files = try first.relativeFiles()
        #expect(files == (try second.relativeFiles()))
        #expect(files.count == manifestA.files.count + 2)
        for file in files {
            #expect(try first.contents(of: file) == second.contents(of: file), "\(file) differs")
        }
    }

    @Test func differentSeedGivesDifferentBytes() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        var other = ReceiptScenario.small
        other.seed += 1
        let manifestA = try ReceiptDataGenerator(scenario: .small).write(to: first.path, compress: false)
        _ = try ReceiptDataGenerator(scenario: other).write(to: second.path, compress: false)
        for file in manifestA.files {
            #expect(try first.contents(of: file.path) != second.contents(of: file.path))
        }
        // The catalog is fixed; only the receipts depend on the seed.
        #expect(try first.contents(of: "catalog.json") == second.contents(of: "catalog.json"))
    }

    @Test func writesStableLayoutOfDailyPartFiles() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts {
            $0.days = 2
            $0.filesPerDay = 3
        }
        #expect(
            manifest.files.map(\.path) == [
                "receipts/2014-03-01/part-0001.jsonl", "receipts/2014-03-01/part-0002.jsonl",
                "receipts/2014-03-01/part-0003.jsonl", "receipts/2014-03-02/part-0001.jsonl",
                "receipts/2014-03-02/part-0002.jsonl", "receipts/2014-03-02/part-0003.jsonl",
            ])
        #expect(
            try directory.relativeFiles() == (["catalog.json", "manifest.json"] + manifest.files.map(\.path)).sorted())
    }

    @Test func compressedOutputIsGzipWithTheSameContent() throws {
        let plain = try TemporaryDirectory()
        let compressed = try TemporaryDirectory()
        let plainManifest = try ReceiptDataGenerator(scenario: .small).write(to: plain.path, compress: false)
        var gzipManifest = try ReceiptDataGenerator(scenario: .small).write(to: compressed.path, compress: true)
        for file in gzipManifest.files {
            #expect(file.path.hasSuffix(".jsonl.gz"))
            let bytes = try compressed.contents(of: file.path)
            #expect(bytes.prefix(2) == Data([0x1F, 0x8B]), "\(file.path) is not gzip")
        }
        for index in gzipManifest.files.indices {
            gzipManifest.files[index].path = String(gzipManifest.files[index].path.dropLast(3))
        }
        #expect(gzipManifest == plainManifest)
    }

    @Test func manifestFileDecodesToTheReturnedManifest() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts()
        let decoded = try JSONDecoder().decode(
            GenerationManifest.self, from: try directory.contents(of: "manifest.json"))
        #expect(decoded == manifest)
        #expect(manifest.scenario == .small)
        #expect(Set(manifest.badRecordsByReason.keys) == Set(BadRecordReason.allCases.map(\.rawValue)))
    }

    @Test func catalogHasDocumentedShape() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.writeReceipts()
        let catalog = try #require(
            try JSONSerialization.jsonObject(with: directory.contents(of: "catalog.json")) as? [String: Any])
        let apps = try #require(catalog["apps"] as? [[String: String]])
        let products = try #require(catalog["products"] as? [[String: String]])
        #expect(apps.count == 3)
        #expect(products.count == 14)
        for app in apps {
            #expect(Set(app.keys) == ["bundle_id", "apple_id", "sku", "name"])
        }
        let bundles = Set(apps.compactMap { $0["bundle_id"] })
        let types: Set<String> = [
            "consumable", "non-consumable", "auto-renewable", "non-renewing", "free-subscription",
        ]
        for product in products {
            #expect(Set(product.keys) == ["product_id", "bundle_id", "type", "name"])
            #expect(bundles.contains(product["bundle_id"] ?? ""))
            #expect(types.contains(product["type"] ?? ""))
        }
        #expect(Set(products.compactMap { $0["type"] }) == types)
    }

    @Test func benchmarkPresetReachesItsTargetWithinOneReceiptPerFile() throws {
        let directory = try TemporaryDirectory()
        let manifest = try directory.writeReceipts(.benchmark(entries: 20_000))
        #expect(manifest.files.count == 28)
        #expect(manifest.transactionEntries >= 20_000)
        // Each file stops at the first receipt that reaches its quota; a receipt lists well under 100 entries.
        #expect(manifest.transactionEntries < 20_000 + 100 * manifest.files.count)
        #expect(manifest.files.reduce(0) { $0 + $1.transactionEntries } == manifest.transactionEntries)
    }

    @Test func rejectsImpossibleScenarios() throws {
        let directory = try TemporaryDirectory()
        var scenarios: [ReceiptScenario] = []
        var scenario = ReceiptScenario.small
        scenario.refundRate = 1.5
        scenarios.append(scenario)
        scenario = .small
        scenario.badRecordRate = .nan
        scenarios.append(scenario)
        scenario = .small
        scenario.days = 0
        scenarios.append(scenario)
        scenario = .small
        scenario.errorStatusRate = 0.5
        scenario.badRecordRate = 0.5
        scenarios.append(scenario)
        for scenario in scenarios {
            #expect(throws: SyntheticDataError.self) {
                try ReceiptDataGenerator(scenario: scenario).write(to: directory.path, compress: false)
            }
        }
        #expect(try directory.relativeFiles().isEmpty)
    }

    @Test func zeroTargetWritesEmptyFilesAndAnEmptyLedger() throws {
        let directory = try TemporaryDirectory()
        var scenario = ReceiptScenario.small
        scenario.targetEntries = 0
        scenario.days = 2
        let manifest = try ReceiptDataGenerator(scenario: scenario).write(to: directory.path, compress: false)
        #expect(manifest.files.count == 2)
        #expect(manifest.records == 0)
        #expect(try directory.contents(of: manifest.files[0].path).isEmpty)
        // Compressed, an empty file is still a complete gzip member, not zero bytes.
        let compressed = try ReceiptDataGenerator(scenario: scenario).write(to: directory.path, compress: true)
        #expect(try directory.contents(of: compressed.files[0].path).prefix(2) == Data([0x1F, 0x8B]))
    }
}
