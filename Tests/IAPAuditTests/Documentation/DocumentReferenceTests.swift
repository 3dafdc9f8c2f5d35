import Foundation
import Testing

/// Every Markdown document the repository's code, SQL, scripts and documents point at exists in the repository, so a
/// reader who follows "see docs/x.md" (or a help text's reference) finds it in a fresh clone.
struct DocumentReferenceTests {
    /// The repository root, found from this file's path (Tests/IAPAuditTests/Documentation/…).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Where references are looked for: README.md and these folders (test fixtures and generated data excluded).
    static let scannedFolders = ["Sources", "sql", "reports", "docs", "Tests", "bench", "fuzz", "examples"]

    /// Text files worth reading; extensionless files are the scripts in `bench/` and `fuzz/`.
    static let scannedExtensions: Set<String> = ["swift", "sql", "md", "toml", "h", "modulemap", ""]

    /// References that cannot be rewritten, with the document they mean: a released migration is never edited (the
    /// runner checksums it), so its header keeps the spec's name; the document it means explains that name.
    static let frozenReferences: [String: [String: String]] = [
        "sql/0003_create_detection.sql": ["FRAUD" + ".md": "docs/fraud-rules.md"],
        "docs/fraud-rules.md": ["FRAUD" + ".md": "docs/fraud-rules.md"],
    ]

    /// One `*.md` reference: where it is and what it says.
    struct Reference: CustomStringConvertible {
        var file: String
        var line: Int
        var target: String
        var description: String { "\(file):\(line): \(target)" }
    }

    /// The `*.md` references in `text`: Markdown link targets and bare mentions (`docs/x.md`, `README.md`), not URLs.
    static func references(in text: String, file: String) -> [Reference] {
        var found: [Reference] = []
        let pattern = /[A-Za-z0-9_.\/-]*[A-Za-z0-9_-]\.md(?![A-Za-z0-9_])/
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for match in line.matches(of: pattern) {
                // Part of a URL (https://…/README.md): not a file of this repository.
                let before = line[line.startIndex..<match.range.lowerBound]
                let tokenStart =
                    before.lastIndex(where: \.isWhitespace).map { before.index(after: $0) } ?? before.startIndex
                if line[tokenStart..<match.range.upperBound].contains("://") { continue }
                var target = String(match.output)
                while target.hasPrefix("./") { target.removeFirst(2) }
                found.append(Reference(file: file, line: index + 1, target: target))
            }
        }
        return found
    }

    /// Whether `reference` names a file of the repository: relative to the file that holds it, to the root, or (a
    /// bare file name such as `README.md`) any file of that name.
    static func resolves(_ reference: Reference, fileNames: Set<String>) -> Bool {
        if let meant = frozenReferences[reference.file]?[reference.target] {
            return FileManager.default.fileExists(atPath: root.appendingPathComponent(meant).path)
        }
        let directory = root.appendingPathComponent(reference.file).deletingLastPathComponent()
        let candidates = [
            directory.appendingPathComponent(reference.target).standardizedFileURL,
            root.appendingPathComponent(reference.target).standardizedFileURL,
        ]
        if candidates.contains(where: { FileManager.default.fileExists(atPath: $0.path) }) { return true }
        return !reference.target.contains("/") && fileNames.contains(reference.target)
    }

    /// The repository's files to scan, relative to the root.
    static func scannedFiles() throws -> [String] {
        var files = ["README.md"]
        let ownPath = URL(fileURLWithPath: #filePath).standardizedFileURL.path
        for folder in scannedFolders {
            let url = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey])
            else { continue }
            for case let file as URL in walker {
                let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                if relative.hasPrefix("Tests/Fixtures/") || relative.hasPrefix("examples/receipts/")
                    || relative.hasPrefix("examples/reports/") || file.standardizedFileURL.path == ownPath
                {
                    continue
                }
                guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                    scannedExtensions.contains(file.pathExtension)
                else { continue }
                files.append(relative)
            }
        }
        return files.sorted()
    }

    /// The names of every Markdown file in the repository (fixtures included: their PROVENANCE.md is real).
    static func markdownFileNames() -> Set<String> {
        var names: Set<String> = []
        for folder in ["."] + scannedFolders {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            else { continue }
            for case let path as String in walker where path.hasSuffix(".md") && !path.hasPrefix(".build") {
                names.insert((path as NSString).lastPathComponent)
            }
        }
        return names
    }

    @Test func everyMarkdownReferenceResolvesInTheRepository() throws {
        let fileNames = Self.markdownFileNames()
        var references: [Reference] = []
        for file in try Self.scannedFiles() {
            let data = try Data(contentsOf: Self.root.appendingPathComponent(file))
            references += Self.references(in: String(decoding: data, as: UTF8.self), file: file)
        }
        // The documents the product points at are among them; an empty scan would prove nothing.
        for document in ["docs/fraud-rules.md", "docs/reconciliation.md", "docs/inputs.md", "docs/operating.md"] {
            #expect(references.contains { $0.target == document }, "nothing refers to \(document)")
        }
        let unresolved = references.filter { !Self.resolves($0, fileNames: fileNames) }
        #expect(unresolved.isEmpty, "references to documents that do not exist:\n\(unresolved.map(\.description))")
    }

    @Test func aReferenceToAMissingDocumentIsReported() {
        let text = """
            Run the fraud rules (\("FRAUD" + ".md")) and see [the rules](docs/fraud-rules.md), \
            [nothing](docs/missing.md#part), ../README.md and https://example.com/elsewhere/NOTES.md.
            """
        let found = Self.references(in: text, file: "Sources/iap-audit/DetectCommand.swift")
        #expect(found.map(\.target) == ["FRAUD" + ".md", "docs/fraud-rules.md", "docs/missing.md", "../README.md"])
        let unresolved = found.filter { !Self.resolves($0, fileNames: Self.markdownFileNames()) }.map(\.target)
        #expect(unresolved == ["FRAUD" + ".md", "docs/missing.md", "../README.md"])
    }
}
