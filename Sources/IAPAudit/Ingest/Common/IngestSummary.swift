/// What one ingest did, for the run summary, logs and metrics.
package struct IngestSummary: Sendable, Codable, Equatable {
    /// Files named or found in directories that this ingest considered.
    package var filesSeen = 0
    /// Files read and stored in this run.
    package var filesIngested = 0
    /// Files whose exact bytes were stored before (re-ingest is a no-op).
    package var filesAlreadyIngested = 0
    /// Of `filesAlreadyIngested`, the files not read at all: the same path, size and modification time as when their
    /// whole content was found stored (`known_file`; `--rehash` reads them).
    package var filesUnchanged = 0
    /// Files in directories that were not read (hidden, of another kind, not regular files), with their paths in
    /// the log.
    package var filesIgnored = 0
    /// Files left for a later run because they are still being written (changed within the settling time, with no
    /// complete line yet, or compressed or whole-document files that may not be complete).
    package var filesDeferred = 0
    /// Files that could not be read or stored (each quarantined as a whole, with its reason): the batch went on
    /// without them, and the command exits non-zero.
    package var filesFailed = 0
    /// Records (receipts or report rows) read.
    package var records = 0
    /// Records stored.
    package var stored = 0
    /// Records read that an earlier file (or an earlier line of the same file) had stored already: not stored again.
    /// `records` = `stored` + `alreadyStored` + the records among `quarantined`.
    package var alreadyStored = 0
    /// Records and file-level problems quarantined.
    package var quarantined = 0
    /// Of `quarantined`, the problems of a whole file rather than of one record (a header no layout matches, a
    /// truncated gzip's end, an empty or UTF-16 file, a file that could not be read or stored).
    package var quarantinedFileProblems = 0
    /// Records quarantined: `records` = `stored` + `alreadyStored` + `quarantinedRecords`.
    package var quarantinedRecords: Int { quarantined - quarantinedFileProblems }
    /// Transaction entries read (every `in_app`, `latest_receipt_info` and iOS 6 receipt object).
    package var transactionEntries = 0
    /// Quarantined records by reason code.
    package var quarantinedByReason: [String: Int] = [:]
    /// Signed objects (JWS) stored, by verification outcome (`verified`, `bad-signature`, …).
    package var signedOutcomes: [String: Int] = [:]
    /// Signed objects of records found already stored (`alreadyStored`): read, and not stored again.
    package var signedObjectsAlreadyStored = 0

    /// An empty summary.
    package init() {}

    mutating func add(_ other: IngestSummary) {
        // Every count that adds up over files and runs (key paths are not Sendable, so no static list).
        let counts: [WritableKeyPath<IngestSummary, Int>] = [
            \.filesSeen, \.filesIngested, \.filesAlreadyIngested, \.filesUnchanged, \.filesIgnored, \.filesFailed,
            \.filesDeferred, \.alreadyStored, \.records, \.stored, \.quarantined, \.quarantinedFileProblems,
            \.transactionEntries, \.signedObjectsAlreadyStored,
        ]
        for count in counts { self[keyPath: count] += other[keyPath: count] }
        quarantinedByReason.merge(other.quarantinedByReason, uniquingKeysWith: +)
        signedOutcomes.merge(other.signedOutcomes, uniquingKeysWith: +)
    }
}
