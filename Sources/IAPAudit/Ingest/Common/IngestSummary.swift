/// What one ingest did, for the run summary, logs and metrics.
public struct IngestSummary: Sendable, Codable, Equatable {
    /// Files named or found in directories that this ingest considered.
    public var filesSeen = 0
    /// Files read and stored in this run.
    public var filesIngested = 0
    /// Files whose exact bytes were stored before (re-ingest is a no-op).
    public var filesAlreadyIngested = 0
    /// Files in directories that were not read (hidden, of another kind, not regular files), with their paths in
    /// the log.
    public var filesIgnored = 0
    /// Files left for a later run because they are still being written (changed within the settling time, with no
    /// complete line yet, or compressed or whole-document files that may not be complete).
    public var filesDeferred = 0
    /// Files that could not be read or stored (each quarantined as a whole, with its reason): the batch went on
    /// without them, and the command exits non-zero.
    public var filesFailed = 0
    /// Records (receipts or report rows) read.
    public var records = 0
    /// Records stored.
    public var stored = 0
    /// Records read that an earlier file (or an earlier line of the same file) had stored already: not stored again.
    /// `records` = `stored` + `alreadyStored` + the records among `quarantined`.
    public var alreadyStored = 0
    /// Records and file-level problems quarantined.
    public var quarantined = 0
    /// Of `quarantined`, the problems of a whole file rather than of one record (a header no layout matches, a
    /// truncated gzip's end, an empty or UTF-16 file, a file that could not be read or stored).
    public var quarantinedFileProblems = 0
    /// Records quarantined: `records` = `stored` + `alreadyStored` + `quarantinedRecords`.
    public var quarantinedRecords: Int { quarantined - quarantinedFileProblems }
    /// Transaction entries read (every `in_app`, `latest_receipt_info` and iOS 6 receipt object).
    public var transactionEntries = 0
    /// Quarantined records by reason code.
    public var quarantinedByReason: [String: Int] = [:]

    /// An empty summary.
    public init() {}

    mutating func add(_ other: IngestSummary) {
        filesSeen += other.filesSeen
        filesIngested += other.filesIngested
        filesAlreadyIngested += other.filesAlreadyIngested
        filesIgnored += other.filesIgnored
        filesFailed += other.filesFailed
        filesDeferred += other.filesDeferred
        alreadyStored += other.alreadyStored
        records += other.records
        stored += other.stored
        quarantined += other.quarantined
        quarantinedFileProblems += other.quarantinedFileProblems
        transactionEntries += other.transactionEntries
        quarantinedByReason.merge(other.quarantinedByReason, uniquingKeysWith: +)
    }
}
