internal import Logging
internal import Postgres

/// What every ingest (receipts, sales, and files fetched from Apple) does around its files, written once: the walk
/// (expand the paths, report what is ignored or cannot be listed, skip files known unchanged), the per-file loop
/// (stop between files; a file that fails is quarantined and the batch goes on) and a file's claim in its transaction
/// (its content's lock, then whether its bytes are stored already).
struct IngestSession {
    let kind: InputFileRecord.Kind
    let connection: Connection
    /// The run the files, rows and quarantine rows are attributed to.
    let runID: Int64?
    let logger: Logger
    /// Reads every file, also those `known_file` holds unchanged (`--rehash`).
    var isRehash = false
    /// Called after each file, for a progress bar.
    var onProgress: ProgressHandler?

    /// The files under `paths` to read, in order. Entries of directories that `accepts` refuses are counted and
    /// logged as ignored (`expected` says what is read); entries that cannot be listed are quarantined; files known
    /// unchanged are counted as already ingested and not read.
    func files(
        under paths: [String], accepts: (String) -> Bool, expected: String, into summary: inout IngestSummary
    ) throws -> [String] {
        var inputs = try InputFiles.expand(paths, accepts: accepts)
        try summary.recordSkipped(inputs, expected: expected, runID: runID, connection: connection, logger: logger)
        try summary.skipUnchanged(&inputs, kind: kind, isRehash: isRehash, connection: connection, logger: logger)
        return inputs.files
    }

    /// Ingests each of `files` with `ingest` (given the file's index and path), adding what it did to `summary`. A
    /// stop request is honoured between files; a file that fails is quarantined as a whole and the batch goes on;
    /// what must stop the batch (the database is gone, a stop request) is thrown.
    func forEachFile<Summary: IngestCounting>(
        _ files: [String], stop: StopRequest, into summary: inout Summary, progressStage: String,
        _ ingest: (_ index: Int, _ path: String) throws -> Summary
    ) throws {
        for (index, path) in files.enumerated() {
            try stop.check()
            try account(
                Result { try ingest(index, path) }, of: path, filesDone: index + 1, filesTotal: files.count,
                progressStage: progressStage, into: &summary)
        }
    }

    /// Adds what one file did to `summary`, or quarantines it as a whole when it failed (on this session's
    /// connection, which must be free), and reports progress; throws what must stop the batch.
    func account<Summary: IngestCounting>(
        _ outcome: Result<Summary, any Error>, of path: String, filesDone: Int, filesTotal: Int,
        progressStage: String, into summary: inout Summary
    ) throws {
        switch outcome {
        case .success(let done):
            summary.add(done)
        case .failure(let error):
            try summary.ingest.recordFailure(
                path: path, error: error, runID: runID, connection: connection, logger: logger)
        }
        onProgress?(
            Progress(
                stage: progressStage, filesDone: filesDone, filesTotal: filesTotal, records: summary.ingest.records,
                lastFile: path))
    }

    /// Whether the bytes `digest` names are stored already; when they are and `complete` describes the whole file as
    /// it stands, the path is remembered as known, so the next run skips it unread.
    func isStored(_ digest: FileDigest, path: String, complete: FileStat?) throws -> Bool {
        guard try InputFileRecord.isStored(digest, kind: kind, on: connection) else { return false }
        if let complete {
            try KnownFiles.remember(
                path: path, kind: kind, stat: complete, sha256: digest.sha256, runID: runID, on: connection)
        }
        return true
    }

    /// Inside the file's transaction: takes its content's lock (two processes, or two twin files, never store the
    /// same bytes at once), then tells, as `isStored` does, whether another one stored them first.
    func claim(_ digest: FileDigest, path: String, complete: FileStat?) throws -> Bool {
        try connection.advisoryTransactionLock(digest.lockKey)
        return try !isStored(digest, path: path, complete: complete)
    }
}

/// A summary the per-file loop adds to: the counts every ingest has, and whatever else its kind counts.
protocol IngestCounting {
    var ingest: IngestSummary { get set }
    mutating func add(_ other: Self)
}

extension IngestSummary: IngestCounting {
    var ingest: IngestSummary {
        get { self }
        set { self = newValue }
    }
}

extension SalesIngestSummary: IngestCounting {}
