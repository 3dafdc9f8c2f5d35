/// How far a long stage has come, reported after each input file.
package struct Progress: Sendable {
    /// The stage, e.g. "receipts".
    package var stage: String
    /// Files finished (ingested, or skipped as already ingested).
    package var filesDone: Int
    /// Files this stage will read.
    package var filesTotal: Int
    /// Records read so far.
    package var records: Int
    /// The file just finished.
    package var lastFile: String
}

/// Receives progress; the executable draws a bar on a terminal and stays silent otherwise.
package typealias ProgressHandler = @Sendable (Progress) -> Void
