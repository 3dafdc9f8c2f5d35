package import Foundation

/// Committed expected output (`*.snapshot` files): a test compares what it produced with the file and, on a
/// difference, fails with the changed lines. When a change is meant, `IAP_AUDIT_UPDATE_SNAPSHOTS=1 swift test
/// --filter <Suite>` rewrites the files; review them with `git diff`.
package enum Snapshot {
    /// Whether this run rewrites the snapshots instead of comparing with them.
    package static var isUpdating: Bool { ProcessInfo.processInfo.environment["IAP_AUDIT_UPDATE_SNAPSHOTS"] == "1" }

    /// nil when `actual` is what `file` holds (or the run rewrote it); otherwise a message naming the file and the
    /// lines that differ.
    package static func mismatch(_ actual: String, file: URL) throws -> String? {
        if isUpdating {
            try Data(actual.utf8).write(to: file)
            return nil
        }
        // Decoded by hand: reading a file as a String drops a CSV's byte order mark.
        let expected = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        guard actual != expected else { return nil }
        return "\(file.lastPathComponent) differs (IAP_AUDIT_UPDATE_SNAPSHOTS=1 rewrites it):\n"
            + diff(expected, actual)
    }

    /// The lines that differ between `expected` and `actual` (after their common first and last lines), as `-` and
    /// `+` lines with two lines of context: enough to see what changed on a page.
    package static func diff(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var prefix = 0
        while prefix < min(old.count, new.count), old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(old.count, new.count) - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        var lines = ["@@ line \(prefix + 1) @@"]
        lines += old[max(0, prefix - 2)..<prefix].map { "  " + $0 }
        lines += old[prefix..<(old.count - suffix)].prefix(40).map { "- " + $0 }
        lines += new[prefix..<(new.count - suffix)].prefix(40).map { "+ " + $0 }
        lines += old[(old.count - suffix)..<min(old.count, old.count - suffix + 2)].map { "  " + $0 }
        return lines.joined(separator: "\n")
    }
}
