/// How far a long stage has come, reported after each input file.
public struct Progress: Sendable {
    /// The stage, e.g. "receipts".
    public var stage: String
    /// Files finished (ingested, or skipped as already ingested).
    public var filesDone: Int
    /// Files this stage will read.
    public var filesTotal: Int
    /// Records read so far.
    public var records: Int
    /// The file just finished.
    public var lastFile: String
}

/// Receives progress; the executable draws a bar on a terminal and stays silent otherwise.
public typealias ProgressHandler = @Sendable (Progress) -> Void
