import Foundation
import IAPAudit

/// A one-line progress bar on stderr when it is a terminal; nothing otherwise (cron mail and log files stay clean).
enum TerminalProgress {
    static func handler(logFormat: LogFormat) -> ProgressHandler? {
        guard logFormat == .plain, isatty(STDERR_FILENO) == 1 else { return nil }
        return { progress in
            let width = 30
            let filled = progress.filesTotal == 0 ? width : width * progress.filesDone / progress.filesTotal
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            let line =
                "\(progress.stage) [\(bar)] \(progress.filesDone)/\(progress.filesTotal) files, \(progress.records) records"
            // Through the status line, so log lines printed meanwhile go above the bar, not onto its end.
            StatusLine.show(line, isFinal: progress.filesDone == progress.filesTotal)
        }
    }
}
