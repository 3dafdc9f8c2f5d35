import Foundation

@testable import SyntheticData

/// A fresh directory under the system's temporary directory, removed when the test is done with it.
struct TemporaryDirectory: ~Copyable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Every regular file under the directory, as paths relative to it, sorted.
    func relativeFiles() throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return [] }
        var files: [String] = []
        while let next = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path + "/" + next, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(next)
            }
        }
        return files.sorted()
    }

    /// The bytes of a file under the directory.
    func contents(of relativePath: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path + "/" + relativePath))
    }
}

extension TemporaryDirectory {
    /// Writes `scenario`, changed first by `adjust`, into this directory as plain `.jsonl` (readable without gunzip).
    func writeReceipts(
        _ scenario: ReceiptScenario = .small, _ adjust: (inout ReceiptScenario) -> Void = { _ in }
    ) throws -> GenerationManifest {
        var scenario = scenario
        adjust(&scenario)
        return try ReceiptDataGenerator(scenario: scenario).write(to: path, compress: false)
    }
}
