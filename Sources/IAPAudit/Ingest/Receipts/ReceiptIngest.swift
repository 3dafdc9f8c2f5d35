public import AppStoreFormats
internal import Foundation
internal import Gzip
public import Logging
public import Postgres

/// Loads recorded receipt files into PostgreSQL: each file once, atomically, bad records quarantined.
public struct ReceiptIngest {
    /// Longest record accepted (a longer line is quarantined and skipped while streaming).
    public static let defaultMaxRecordLength = 16 << 20
    /// Transaction-entry bytes buffered before the receipt COPY pauses to load them (bounds memory).
    static let entryBufferLimit = 8 << 20
    /// Receipt-row bytes per chunk handed from the parsing thread.
    static let chunkSize = 1 << 20

    private let connection: Connection
    private let parser: ReceiptRecordParser
    private let runID: Int64?
    private let maxRecordLength: Int
    private let logger: Logger
    /// Called after each file, for a progress bar.
    public var onProgress: ProgressHandler?

    /// An ingest writing through `connection`, hashing usernames with `hasher`, attributing rows to run `runID`.
    public init(
        connection: Connection, hasher: AccountKeyHasher, runID: Int64?,
        maxRecordLength: Int = ReceiptIngest.defaultMaxRecordLength, logger: Logger
    ) {
        self.connection = connection
        self.parser = ReceiptRecordParser(hasher: hasher)
        self.runID = runID
        self.maxRecordLength = maxRecordLength
        self.logger = logger
    }

    /// Ingests every receipt file under `paths`; a `stop` request is honoured between files. A file that cannot be
    /// read or stored is quarantined as a whole and the batch goes on.
    public func ingest(paths: [String], stop: StopRequest = StopRequest()) throws -> IngestSummary {
        let inputs = try InputFiles.expand(paths) { ReceiptFileFormat(fileName: $0) != nil }
        var summary = IngestSummary()
        try summary.recordSkipped(
            inputs, expected: "receipt files are .json, .jsonl, .ndjson, optionally .gz", runID: runID,
            connection: connection, logger: logger)
        // While one file is loaded and merged, the next one is already being parsed on its own thread: the merge
        // is server work, the parse ours, and the two cores do both at once.
        var next: Result<PreparedReceiptFile, any Error>?
        let settled = SettledTransactions()
        defer {
            if case .success(let file)? = next { file.cancel() }
        }
        for (index, path) in inputs.files.enumerated() {
            try stop.check()
            let current = next ?? Result { try prepare(path) }
            next = nil
            if index + 1 < inputs.files.count {
                let following = inputs.files[index + 1]
                next = Result { try prepare(following) }
            }
            do {
                summary.add(try ingest(try current.get(), settled: settled))
            } catch {
                try summary.recordFailure(
                    path: path, error: error, runID: runID, connection: connection, logger: logger)
            }
            onProgress?(
                Progress(
                    stage: "receipts", filesDone: index + 1, filesTotal: inputs.files.count, records: summary.records,
                    lastFile: path))
        }
        return summary
    }

    /// Ingests one file in one transaction; a file whose bytes were stored before is skipped.
    public func ingest(file path: String) throws -> IngestSummary {
        try ingest(try prepare(path), settled: SettledTransactions())
    }

    /// Hashes a file, and unless its content is stored already, reserves its id and starts parsing it.
    func prepare(_ path: String) throws -> PreparedReceiptFile {
        let digest = try FileDigest.of(path: path)
        guard try !InputFileRecord.isStored(digest, on: connection) else {
            return PreparedReceiptFile(path: path, digest: digest)
        }
        let format = ReceiptFileFormat(fileName: (path as NSString).lastPathComponent) ?? .jsonLines
        let reader: ReceiptFileReader
        do {
            reader = try ReceiptFileReader(path: path, format: format, maxRecordLength: maxRecordLength)
        } catch {
            throw IAPAuditError.input("cannot open \(path): \(error)")
        }
        let fileID = try InputFileRecord.reserveID(on: connection)
        let batch = ReceiptBatch(
            reader: reader, parser: parser, fileID: fileID, path: path, runID: runID, logger: logger)
        return PreparedReceiptFile(path: path, digest: digest, fileID: fileID, isGzip: reader.isGzip, batch: batch)
    }

    /// Loads a prepared file in one transaction, staging only transaction copies `settled` does not rule out, and
    /// tells `settled` what the committed file settled.
    func ingest(_ file: PreparedReceiptFile, settled: SettledTransactions) throws -> IngestSummary {
        defer { file.cancel() }
        var summary = IngestSummary()
        summary.filesSeen = 1
        let stopwatch = Stopwatch()
        let path = file.path
        var staged: [StagedCopy] = []
        var conflicting: [TransactionKey] = []
        let outcome = try connection.transaction { () throws -> IngestSummary? in
            guard let fileID = file.fileID else { return nil }
            try connection.advisoryTransactionLock(file.digest.lockKey)
            // Checked again under the lock: another process, or a twin file earlier in this run, may have stored it.
            guard try !InputFileRecord.isStored(file.digest, on: connection) else { return nil }
            let record = InputFileRecord(
                kind: .receipts, path: path, digest: file.digest, isGzip: file.isGzip, runID: runID)
            try record.insert(id: fileID, on: connection)
            try connection.execute(script: try SQLResources.query("receipt_stage"), context: "create staging tables")
            var counts = try load(file, settled: settled, staged: &staged)
            logger.debug("loaded rows", metadata: ["file": "\(path)", "seconds": "\(stopwatch.seconds)"])
            for statement in try SQLResources.statements(ofQuery: "receipt_merge") {
                try connection.query(statement, context: "merge \(path)")
            }
            let conflicts = try connection.query(
                try SQLResources.query("receipt_conflicts"), context: "record conflicting copies from \(path)")
            conflicting = (0..<conflicts.rowCount).map { row in
                TransactionKey(
                    environment: conflicts.string(row, 0) ?? "", transactionID: conflicts.string(row, 1) ?? "")
            }
            try InputFileRecord.recordCounts(counts, fileID: fileID, on: connection)
            counts.filesIngested = 1
            logger.debug("merged", metadata: ["file": "\(path)", "seconds": "\(stopwatch.seconds)"])
            return counts
        }
        guard let outcome else {
            summary.filesAlreadyIngested = 1
            logger.info("already ingested (same content hash)", metadata: ["file": "\(path)"])
            return summary
        }
        settled.record(committed: staged, conflicting: conflicting)
        summary.add(outcome)
        logger.info(
            "ingested receipts",
            metadata: [
                "file": "\(path)", "records": "\(outcome.records)", "stored": "\(outcome.stored)",
                "quarantined": "\(outcome.quarantined)", "transaction_entries": "\(outcome.transactionEntries)",
                "seconds": "\(stopwatch.formattedSeconds)",
            ])
        return summary
    }

    /// Streams the file: its thread parses and renders rows, this one loads them. Receipts go straight into
    /// `receipt` through COPY; entries, renewals and quarantine rows are collected and loaded whenever the collection
    /// grows large, so memory stays bounded.
    private func load(
        _ file: PreparedReceiptFile, settled: SettledTransactions, staged: inout [StagedCopy]
    ) throws -> IngestSummary {
        guard let batch = file.batch, let queue = file.queue, let producer = file.producer else {
            throw IAPAuditError.internalInconsistency("\(file.path) was not prepared for loading")
        }
        let path = file.path
        defer {
            // The batch and its reader belong to the parsing thread until it has stopped.
            queue.cancel()
            producer.waitUntilDone()
        }
        var entries = CopyWriter()
        var links = CopyWriter()
        var renewals = CopyWriter()
        var quarantine = CopyWriter()
        var isDone = false
        while !isDone {
            try connection.copyInBinary(ReceiptRows.receiptCopy, context: "COPY receipt from \(path)") { receipts in
                while links.byteCount + entries.byteCount < Self.entryBufferLimit
                    && quarantine.byteCount < Self.entryBufferLimit
                {
                    guard let chunk = try queue.take() else {
                        isDone = true
                        return
                    }
                    try receipts.append(binaryRows: chunk.receipts)
                    try Self.appendUnsettled(chunk, settled: settled, to: &entries, staged: &staged)
                    try links.append(rows: chunk.links)
                    try renewals.append(rows: chunk.renewals)
                    try quarantine.append(rows: chunk.quarantine)
                }
            }
            try connection.copyIn(ReceiptRows.entryCopy, rows: entries, context: "COPY entries from \(path)")
            try connection.copyIn(ReceiptRows.linkCopy, rows: links, context: "COPY links from \(path)")
            try connection.copyIn(ReceiptRows.renewalCopy, rows: renewals, context: "COPY renewals from \(path)")
            try connection.copyIn(QuarantineRecord.copyStatement, rows: quarantine, context: "COPY quarantine")
            entries.reset()
            links.reset()
            renewals.reset()
            quarantine.reset()
        }
        producer.waitUntilDone()
        return batch.counts
    }

    /// Appends the chunk's staged transaction copies that `settled` does not rule out, noting each in `staged`.
    private static func appendUnsettled(
        _ chunk: ParsedChunk, settled: SettledTransactions, to entries: inout CopyWriter, staged: inout [StagedCopy]
    ) throws(PostgresError) {
        var start = 0
        for row in chunk.entryRows {
            if !settled.isSettled(row.copy) {
                try entries.append(rowsIn: start..<row.end, count: 1, of: chunk.entries)
                staged.append(row.copy)
            }
            start = row.end
        }
    }
}
