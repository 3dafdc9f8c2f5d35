package import Foundation

/// Finds the real App Store samples the tests read: `Tests/Fixtures/corpus` in this repository (licensed, shipped),
/// and, for the few samples without a licence that the repository does not ship, `../shared/corpus` beside it when
/// that folder is there (see `Tests/Fixtures/corpus/PROVENANCE.md`).
///
/// Paths are relative to this file (`#filePath`), never absolute, so a fresh clone finds its own fixtures.
package enum TestCorpus {
    /// The repository's root: two folders above `Tests/TestSupport`.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures/corpus`, with `receipts/` and `sales/` as in the shared corpus.
    package static let fixtures: URL = repositoryRoot.appendingPathComponent("Tests/Fixtures/corpus")

    /// `../shared/corpus` beside the repository, if present.
    package static let shared: URL? = {
        let candidate = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory)
        return exists && isDirectory.boolValue ? candidate : nil
    }()

    /// The samples (paths relative to the corpus root) whose source states no licence: never shipped here.
    package static let unlicensed: [String] = [
        "sales/S_D_85127269_20111122.txt",
        "sales/S_D_85127269_20120207.txt",
    ]

    /// Whether the unlicensed samples can be read (`../shared/corpus` is present); the tests over them run only then.
    package static var hasUnlicensedSamples: Bool {
        guard let shared else { return false }
        return unlicensed.allSatisfy { FileManager.default.fileExists(atPath: shared.appendingPathComponent($0).path) }
    }

    /// Whether `relativePath` (e.g. `sales/S_D_85127269_20111122.txt`) can be read here.
    package static func isAvailable(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path)
    }

    /// Where `relativePath` is: in the fixtures, or — for an unlicensed sample — in `../shared/corpus`.
    package static func url(_ relativePath: String) -> URL {
        if unlicensed.contains(relativePath), let shared {
            return shared.appendingPathComponent(relativePath)
        }
        return fixtures.appendingPathComponent(relativePath)
    }

    /// The file system path of `relativePath` (see `url(_:)`).
    package static func path(_ relativePath: String) -> String {
        url(relativePath).path
    }

    /// The bytes of `relativePath`.
    package static func bytes(_ relativePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(relativePath)))
    }

    /// The sample files in `folder` (e.g. `sales`, `receipts/verifyreceipt`), sorted by name: the shipped ones plus
    /// the unlicensed ones that are available. Hidden files and Markdown notes are not samples.
    package static func files(in folder: String) throws -> [String] {
        var names = Set(
            try FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(folder).path)
                .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") })
        for relativePath in unlicensed where relativePath.hasPrefix(folder + "/") && isAvailable(relativePath) {
            let name = relativePath.dropFirst(folder.count + 1)
            if !name.contains("/") { names.insert(String(name)) }
        }
        return names.sorted()
    }
}
