package import Foundation

/// A fresh directory for one test's fixtures, removed when the value is released at the end of the test.
package final class TemporaryDirectory {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory (the file need not exist).
    package func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    package func write(_ bytes: [UInt8], to name: String) throws -> String {
        let path = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
