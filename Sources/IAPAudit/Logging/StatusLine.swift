internal import Foundation
internal import Synchronization

/// The one-line progress bar on a terminal's stderr, shared with the log handler: a log line clears the bar, is
/// printed on a line of its own, and the bar is drawn again under it (instead of `…3/15 files, 0 records2026-…`).
package enum StatusLine {
    /// The bar's text while it is shown; nil when no bar is on the screen.
    private static let shown = Mutex<String?>(nil)

    /// "Carriage return, erase to the end of the line": the cursor back at the start of an empty line.
    private static let clear = "\r\u{1B}[K"

    /// Draws `text` as the bar, replacing the one shown; `isFinal` ends it with a newline and forgets it.
    package static func show(_ text: String, isFinal: Bool = false) {
        shown.withLock { current in
            FileHandle.standardError.write(Data((clear + text + (isFinal ? "\n" : "")).utf8))
            current = isFinal ? nil : text
        }
    }

    /// Writes `line` (with its newline) to stderr, first clearing the bar and then drawing it again below.
    static func writeAbove(_ line: String) {
        shown.withLock { current in
            guard let bar = current else {
                FileHandle.standardError.write(Data((line + "\n").utf8))
                return
            }
            FileHandle.standardError.write(Data((clear + line + "\n" + bar).utf8))
        }
    }
}
