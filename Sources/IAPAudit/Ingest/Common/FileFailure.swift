internal import AppStoreFormats
internal import Foundation
internal import Logging
internal import Postgres

/// A file that could not be read or stored as a whole. The batch goes on without it: the failure is quarantined
/// (file, line 0, reason, message), logged, counted, and makes the command's exit code non-zero.
struct FileFailure: Error {
    var path: String
    var reason: QuarantineReason
    var message: String

    /// Longest message kept: a database error can quote a hostile value of any length.
    static let messageLimit = 500

    init(path: String, reason: QuarantineReason, message: String) {
        self.path = path
        self.reason = reason
        self.message = message.count > Self.messageLimit ? message.prefix(Self.messageLimit) + "…" : message
    }

    /// The failure `error` means for one file, or nil when `error` must stop the batch instead: the database is
    /// gone or out of space, a signal asked to stop, or something impossible happened.
    init?(path: String, error: any Error) {
        switch error {
        case let error as PostgresError where !error.isUnavailable && !error.isResourceExhaustion:
            // The statement's context and PostgreSQL's message, never its DETAIL (it can quote the values).
            self.init(path: path, reason: .databaseError, message: error.summary)
        case IAPAuditError.input(let message):
            self.init(path: path, reason: .readError, message: message)
        default:
            return nil
        }
    }

    /// Writes the quarantine row in a transaction of its own (the file's own was rolled back).
    func record(runID: Int64?, on connection: Connection) throws {
        var rows = CopyWriter()
        try QuarantineRecord(line: 0, recordNumber: nil, reason: reason, message: message, excerpt: [])
            .append(to: &rows, fileID: nil, path: path, runID: runID)
        try connection.copyIn(QuarantineRecord.copyStatement, rows: rows, context: "quarantine failed file \(path)")
    }
}

extension IngestSummary {
    /// Counts and reports what the walk did not read: ignored entries are logged, failed ones quarantined as well.
    mutating func recordSkipped(
        _ inputs: InputFiles, expected: String, runID: Int64?, connection: Connection, logger: Logger
    ) throws {
        filesIgnored += inputs.ignored.count
        for entry in inputs.ignored {
            logger.info("ignored: \(entry.reason) (\(expected))", metadata: ["file": "\(entry.path)"])
        }
        for entry in inputs.failed {
            try recordFailure(
                FileFailure(path: entry.path, reason: .readError, message: entry.reason), runID: runID,
                connection: connection, logger: logger)
        }
    }

    /// Quarantines, logs and counts one failed file; rethrows `error` when it must stop the batch.
    mutating func recordFailure(
        path: String, error: any Error, runID: Int64?, connection: Connection, logger: Logger
    ) throws {
        guard let failure = FileFailure(path: path, error: error) else { throw error }
        try recordFailure(failure, runID: runID, connection: connection, logger: logger)
    }

    private mutating func recordFailure(
        _ failure: FileFailure, runID: Int64?, connection: Connection, logger: Logger
    ) throws {
        try failure.record(runID: runID, on: connection)
        logger.error(
            "file not stored; the batch goes on without it",
            metadata: [
                "file": "\(failure.path)", "reason": "\(failure.reason.rawValue)", "error": "\(failure.message)",
            ])
        filesSeen += 1
        filesFailed += 1
        quarantined += 1
        quarantinedFileProblems += 1
        quarantinedByReason[failure.reason.rawValue, default: 0] += 1
    }
}
