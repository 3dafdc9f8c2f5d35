import Foundation
import IAPAudit

extension RunConfiguration {
    /// Loads `text` as a configuration file: written as `iap-audit.toml` in a fresh directory of its own, against
    /// which its relative paths resolve (the directory is removed once the file is read).
    static func loading(_ text: String) throws -> RunConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("iap-audit.toml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try RunConfiguration.load(path: path)
    }
}
