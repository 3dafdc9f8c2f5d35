internal import Foundation

/// The files behind the paths a user named: files as given, directories walked recursively in a stable order.
struct InputFiles {
    /// Files to read, in the order they will be read.
    var files: [String] = []
    /// Files found in directories but not read (hidden, or not of a kind this command reads), for the summary.
    var ignored: [String] = []

    /// Expands `paths`; `accepts` decides which directory entries are inputs. A named path that does not exist is an
    /// error (a typo in a cron line must not look like an empty day).
    static func expand(_ paths: [String], accepts: (String) -> Bool) throws(IAPAuditError) -> InputFiles {
        var result = InputFiles()
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw IAPAuditError.input("no such file or directory: \(path)")
            }
            guard isDirectory.boolValue else {
                result.files.append(path)
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                throw IAPAuditError.input("cannot read directory: \(path)")
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let full = (path as NSString).appendingPathComponent(relative)
                var entryIsDirectory: ObjCBool = false
                guard manager.fileExists(atPath: full, isDirectory: &entryIsDirectory), !entryIsDirectory.boolValue
                else { continue }
                let name = (relative as NSString).lastPathComponent
                if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) || !accepts(name) {
                    result.ignored.append(full)
                } else {
                    found.append(full)
                }
            }
            // Byte order, not locale order: the same tree is always read in the same order.
            result.files += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        }
        return result
    }
}
