import Foundation
import SyntheticData
import Testing

/// `examples/` is generator output; the generator must keep writing exactly those bytes, or the examples are stale.
struct ShippedExamplesTests {
    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples")
    }

    @Test func generatorReproducesTheShippedExamples() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try ReceiptDataGenerator(scenario: .small).write(to: directory.path, compress: false)
        let shipped = Self.examples
        let relativePaths = try FileManager.default.subpathsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }
            .filter { $0 != "manifest.json" }
            .sorted()
        #expect(relativePaths.count == 11)
        for path in relativePaths {
            let generated = try Data(contentsOf: directory.appendingPathComponent(path))
            let committed = try Data(contentsOf: shipped.appendingPathComponent(path))
            #expect(generated == committed, "examples/\(path) differs from what the generator writes now")
        }
    }
}
