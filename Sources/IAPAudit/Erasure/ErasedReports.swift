internal import Foundation
internal import Reports

/// The report folder after an erasure: reports and site pages written before it still name the customer (the flags
/// page, the account's subject page). Those files are written again from the database, in the formats the folder
/// holds, which also removes the subject pages of subjects that are gone.
struct ErasedReports {
    let directory: String
    let identifiers: ErasedIdentifiers

    /// Rewrites the folder when a file in it names the customer; returns how many files named them before, and the
    /// paths (relative, the identifiers blanked) of those that still do after.
    func rewrite(with workspace: Workspace) throws -> (named: Int, remaining: [String]) {
        let named = try filesNaming()
        guard !named.isEmpty else { return (0, []) }
        let formats = ReportFormat.allCases.filter { format in
            named.contains { ($0 as NSString).pathExtension == format.fileExtension }
        }
        _ = try workspace.writeAllReports(to: directory, formats: formats.isEmpty ? [.html] : formats)
        return (named.count, try filesNaming().map(blanked))
    }

    /// The files under the folder whose name or content names the customer, relative to it.
    func filesNaming() throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            if identifiers.isMentioned(in: relative)
                || identifiers.isMentioned(in: String(decoding: bytes, as: UTF8.self))
            {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    /// A path safe to print: a subject page is named after its key.
    private func blanked(_ path: String) -> String {
        identifiers.needles.reduce(path) { $0.replacingOccurrences(of: $1, with: "…", options: .caseInsensitive) }
    }
}
