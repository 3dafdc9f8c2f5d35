import Foundation
import Testing

/// The import rules of `docs/architecture.md`, enforced: every Swift file of a target imports only what the table
/// there allows, so the picture in the document and the code cannot drift apart.
struct ImportRulesTests {
    /// The repository root, found from this file's path (Tests/ArchitectureTests/ImportRulesTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Modules of the toolchain every target may use.
    static let systemModules: Set<String> = [
        "Foundation", "Dispatch", "Glibc", "Musl", "Darwin", "Synchronization", "PackagePlugin",
        // Parts of Foundation and Dispatch on Linux; named where one of them owns a C type (`stat`) that Glibc
        // declares too.
        "CoreFoundation", "CDispatch",
    ]

    /// One row of the architecture table: a target, its folder and the modules it may import.
    struct Rule: CustomTestStringConvertible {
        var target: String
        var folder: String
        var allowed: Set<String>
        var testDescription: String { target }
    }

    /// The rows of the table under "## Targets and what they may import" in docs/architecture.md.
    static func rules() throws -> [Rule] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let section = text.range(of: "## Targets and what they may import") else { return [] }
        var rules: [Rule] = []
        for line in text[section.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[1].hasPrefix("`") else { continue }  // header and separator rows
            let names = { (cell: String) in
                Set(
                    cell.split(whereSeparator: { $0 == "," || $0 == " " }).map { $0.trimmingCharacters(in: ["`"]) }
                        .filter { !$0.isEmpty && $0 != "—" })
            }
            rules.append(
                Rule(
                    target: cells[0].trimmingCharacters(in: ["`"]), folder: cells[1].trimmingCharacters(in: ["`"]),
                    allowed: names(cells[2])))
        }
        return rules
    }

    /// Every `import` in the Swift files under `folder`, with file and line.
    static func imports(under folder: String) throws -> [(module: String, place: String)] {
        let directory = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        let pattern = try Regex(
            #"^\s*(?:@\w+\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:\w+\s+)?([A-Za-z_]\w*)"#
        )
        var found: [(String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let lines = try String(contentsOf: url, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                guard let match = try pattern.firstMatch(in: String(line)), let module = match.output[1].substring
                else { continue }
                let relative = url.path.replacingOccurrences(of: root.path + "/", with: "")
                found.append((String(module), "\(relative):\(index + 1)"))
            }
        }
        return found
    }

    @Test func everySourceFolderHasARule() throws {
        let rules = try Self.rules()
        #expect(rules.count > 5, "docs/architecture.md lost its table of targets")
        let folders = Set(rules.map(\.folder))
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Sources").path)
        for name in sources where !name.hasPrefix(".") {
            #expect(folders.contains("Sources/\(name)"), "Sources/\(name) is not in docs/architecture.md's table")
        }
    }

    @Test(arguments: try ImportRulesTests.rules())
    func importsOnlyWhatTheArchitectureAllows(_ rule: Rule) throws {
        for (module, place) in try Self.imports(under: rule.folder) {
            let isAllowed =
                module == rule.target || rule.allowed.contains(module)
                || Self.systemModules.contains(module)
            #expect(isAllowed, "\(place): \(rule.target) may not import \(module) (docs/architecture.md)")
        }
    }

    @Test func theCheckSeesAForbiddenImport() throws {
        // The rule must be able to fail: the executable's folder really imports IAPAudit, which Gzip may not.
        let executable = try Self.imports(under: "Sources/iap-audit").map(\.module)
        #expect(executable.contains("IAPAudit"))
        let gzip = try #require(try Self.rules().first { $0.target == "Gzip" })
        #expect(!gzip.allowed.contains("IAPAudit"))
    }
}
