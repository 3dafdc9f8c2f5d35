package import AppStoreFormats
package import AppStoreSignatures
internal import Foundation
internal import Gzip
package import Logging
package import Postgres

/// Loads recorded receipt files into PostgreSQL: each file once, atomically, bad records quarantined.
package struct ReceiptIngest {
    /// Longest record accepted (a longer line is quarantined and skipped while streaming).
    package static let defaultMaxRecordLength = 16 << 20
    /// Transaction-entry bytes buffered before the receipt COPY pauses to load them (bounds memory).
    static let entryBufferLimit = 8 << 20
    /// Receipt-row bytes per chunk handed from the parsing thread.
    static let chunkSize = 1 << 20
    /// The server's sort memory in a file's transaction: a file's staged copies sorted in memory (a few tens of MB on
    /// a month of signed data), at most this much per connection, then on disk as before.
    static let stagingWorkMemory = "64MB"

    /// Where this ingest's files are loaded (a copy made for the second connection differs only in this).
    private(set) var connection: Connection
    private let parser: ReceiptRecordParser
    /// Judges signed data, each distinct JWS once per ingest.
    private let signatures: VerifiedSignatures
    private let runID: Int64?
    private let maxRecordLength: Int
    let logger: Logger
    /// Called after each file, for a progress bar.
    package var onProgress: ProgressHandler?
    /// A file changed less than this long ago may still be being written: its incomplete end waits for a later run.
    package var settlingSeconds = ReceiptIngest.defaultSettlingSeconds
    /// A recorder finishes a line in microseconds; a minute is ample and delays a finished file very little.
    package static let defaultSettlingSeconds: Double = 60
    /// Reads every file, also those `known_file` holds unchanged (`--rehash`).
    package var isRehash = false
    /// The server's form of the dedupe and copy comparison (`QueryDialect.of` the connection).
    package var queryDialect = QueryDialect.postgres
    /// Opens a second connection to the same database (never set inside a transaction of `connection`'s: a dry
    /// run's files must roll back with it). With one, a file's rows stream in on one connection while the file
    /// before it runs its statements on the other; without, or on Citus, files load one after another on
    /// `connection`.
    package var openOverlapConnection: (() throws -> Connection)?

    /// An ingest writing through `connection`, hashing usernames with `hasher`, judging signed data with `verifier`,
    /// attributing rows to run `runID`.
    package init(
        connection: Connection, hasher: AccountKeyHasher, verifier: SignatureVerifier = SignatureVerifier(),
        runID: Int64?, maxRecordLength: Int = ReceiptIngest.defaultMaxRecordLength, logger: Logger
    ) {
        self.connection = connection
        self.parser = ReceiptRecordParser(hasher: hasher)
        self.signatures = VerifiedSignatures(verifier: verifier)
        self.runID = runID
        self.maxRecordLength = maxRecordLength
        self.logger = logger
    }

    /// What this ingest shares with every other: the walk, the per-file loop, a file's claim.
    var session: IngestSession {
        IngestSession(
            kind: .receipts, connection: connection, runID: runID, logger: logger, isRehash: isRehash,
            onProgress: onProgress)
    }

    /// Ingests every receipt file under `paths`; a `stop` request is honoured between files. A file that cannot be
    /// read or stored is quarantined as a whole and the batch goes on.
    package func ingest(paths: [String], stop: StopRequest = StopRequest()) throws -> IngestSummary {
        var summary = IngestSummary()
        let files = try session.files(
            under: paths, accepts: { ReceiptFileFormat(fileName: $0) != nil },
            expected: "receipt files are .json, .jsonl, .ndjson, optionally .gz", into: &summary)
        var lanes = [self]
        // Not on Citus: a write to a reference table (input_file, known_file) takes a lock every later write to that
        // table waits for, so file N's statements would wait on file N+1's open transaction while N+1 waits for N,
        // a cycle the server cannot see.
        if files.count > 1, queryDialect == .postgres, let open = openOverlapConnection {
            do {
                var lane = self
                lane.connection = try open()
                lanes.append(lane)
            } catch {
                // A server at its connection limit still takes the files, one after another.
                logger.notice(
                    "files load one after another: a second connection could not be opened",
                    metadata: ["error": "\(error)"])
            }
        }
        try Self.ingest(files, lanes: lanes, stop: stop, into: &summary)
        return summary
    }

    /// Ingests one file in one transaction; a file whose bytes were stored before is skipped.
    package func ingest(file path: String) throws -> IngestSummary {
        try ingest(try prepare(path), settled: SettledTransactions())
    }

    /// Hashes a file and decides what of it to read: nothing (stored already, or still being written), what was
    /// appended since an earlier read, or all of it. Unless nothing, reserves its id and starts parsing it.
    func prepare(_ path: String) throws -> PreparedReceiptFile {
        switch try plan(path) {
        case .skip(let path, let why): .skipped(path: path, why)
        case .read(let plan): try startParsing(plan)
        }
    }

    /// What a read of a file will take, decided from one scan of it: the reader opens on these bytes only, so what a
    /// recorder appends after the scan (maybe half a line) waits for the next run.
    struct ReadPlan {
        /// The `input_file` row the read writes (its path among it).
        var record: InputFileRecord
        var format: ReceiptFileFormat
        var isSettled: Bool
        var openReader: () throws -> ReceiptFileReader
    }

    enum PlannedRead {
        case skip(path: String, PreparedReceiptFile.Skip)
        case read(ReadPlan)
    }

    /// Scans `path` and decides what of it to read (see `prepare`).
    func plan(_ path: String) throws -> PlannedRead {
        let format = ReceiptFileFormat(fileName: (path as NSString).lastPathComponent) ?? .jsonLines
        let earlier = try InputFileRecord.latestRead(of: path, kind: .receipts, on: connection)
        let scan = try FileScan.of(path: path, prefixLength: earlier?.size)
        let isSettled = Date().timeIntervalSince(scan.modifiedAt) >= settlingSeconds
        // A file still being written is read only up to its last complete record; a half-written one, or one still
        // empty (opened before its first record), is left for the next run, never quarantined. (A truncated gzip end
        // of a young file rolls its load back: see ReceiptBatch.)
        if !isSettled && scan.whole.size == 0 { return .skip(path: path, .stillBeingWritten) }
        var consumed = scan.whole
        if !isSettled && !scan.isGzip && !Self.endsWithCompleteRecord(scan, format: format) {
            guard format == .jsonLines, let complete = scan.throughLastNewline else {
                return .skip(path: path, .stillBeingWritten)
            }
            consumed = complete
        }
        let complete = scan.completeStat(consumed: consumed, settlingSeconds: settlingSeconds)
        guard try !session.isStored(consumed, path: path, complete: complete) else {
            return .skip(path: path, .alreadyIngested)
        }
        var record = InputFileRecord(
            kind: .receipts, path: path, digest: consumed, isGzip: scan.isGzip, runID: runID,
            modifiedAt: scan.modifiedAt)
        record.completeFile = complete
        let maxRecordLength = maxRecordLength
        let openReader: () throws -> ReceiptFileReader
        if let earlier, let endLine = earlier.endLine, !earlier.isGzip, !scan.isGzip, format == .jsonLines,
            scan.prefixSHA256 == earlier.sha256, consumed.size > earlier.size
        {
            // The same file, grown: read what was appended. (An earlier read that took a final line without its
            // line end left the rest of that line, its LF, to this one: a blank line, which is no record.)
            let firstLine = try Self.endsWithNewline(path, at: earlier.size) ? endLine + 1 : endLine
            record.start = InputFileRecord.Start(
                offset: earlier.size, line: firstLine, continuesFileID: earlier.fileID)
            openReader = {
                try ReceiptFileReader(
                    linesOf: path, range: earlier.size..<consumed.size, firstLine: firstLine,
                    maxRecordLength: maxRecordLength)
            }
        } else if consumed.size < scan.whole.size || (!isSettled && !scan.isGzip && format == .jsonLines) {
            // A young file is read through the bytes scanned, never to its end at reading time.
            openReader = {
                try ReceiptFileReader(
                    linesOf: path, range: 0..<consumed.size, firstLine: 1, maxRecordLength: maxRecordLength)
            }
        } else {
            openReader = { try ReceiptFileReader(path: path, format: format, maxRecordLength: maxRecordLength) }
        }
        return .read(ReadPlan(record: record, format: format, isSettled: isSettled, openReader: openReader))
    }

    /// Opens the planned read, reserves the file's id and starts parsing it on its own thread.
    func startParsing(_ plan: ReadPlan) throws -> PreparedReceiptFile {
        let (path, isSettled, openReader) = (plan.record.path, plan.isSettled, plan.openReader)
        let reader: ReceiptFileReader
        do {
            reader = try openReader()
        } catch {
            throw IAPAuditError.input("cannot open \(path): \(error)")
        }
        let fileID = try InputFileRecord.reserveID(on: connection)
        let (parser, signatures, runID, logger) = (parser, signatures, runID, logger)
        let makeBatch = { (reader: ReceiptFileReader) in
            let batch = ReceiptBatch(
                reader: reader, parser: parser, signatures: signatures, fileID: fileID, path: path, runID: runID,
                logger: logger)
            batch.isStillBeingWritten = !isSettled
            return batch
        }
        return .parsing(
            ParsingReceiptFile(
                record: plan.record, fileID: fileID, isJSONLines: plan.format == .jsonLines, batch: makeBatch(reader),
                reread: { makeBatch(try openReader()) }))
    }

    /// Whether the file's last record is complete: it ends with a line end, or (a writer that ends records without
    /// one) its final line or document is whole JSON. A prefix of a JSON object that parses is the whole object.
    static func endsWithCompleteRecord(_ scan: FileScan, format: ReceiptFileFormat) -> Bool {
        switch format {
        case .jsonLines:
            guard let tail = scan.tail else { return false }
            return tail.isEmpty || (try? JSONParser.parse(tail)) != nil
        case .jsonDocument:
            return scan.lastNonWhitespace == UInt8(ascii: "}") || scan.lastNonWhitespace == UInt8(ascii: "]")
        }
    }

    /// Whether the byte before `offset` is a line feed.
    static func endsWithNewline(_ path: String, at offset: Int) throws -> Bool {
        guard offset > 0 else { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw IAPAuditError.input("cannot open \(path)") }
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset - 1))
        return try handle.read(upToCount: 1) == Data([0x0A])
    }

    /// Loads a prepared file in one transaction, staging only transaction copies `settled` does not rule out, and
    /// tells `settled` what the committed file settled.
    /// `beforeFinishing` is called once the rows are loaded, before the file's statements (see `FileRun`).
    func ingest(
        _ file: PreparedReceiptFile, settled: SettledTransactions, beforeFinishing: () throws -> Void = {}
    ) throws -> IngestSummary {
        defer { file.cancel() }
        var summary = IngestSummary()
        summary.filesSeen = 1
        let path = file.path
        let loading: ParsingReceiptFile
        switch file {
        case .skipped(_, .stillBeingWritten):
            summary.filesDeferred = 1
            logger.info("left for the next run: still being written", metadata: ["file": "\(path)"])
            return summary
        case .skipped(_, .alreadyIngested):
            summary.filesAlreadyIngested = 1
            logger.info("already ingested (same content hash)", metadata: ["file": "\(path)"])
            return summary
        case .parsing(let parsing):
            loading = parsing
        }
        let stopwatch = Stopwatch()
        var staged: [StagedCopy] = []
        var conflicting: [TransactionKey] = []
        // Transactions (with their ids) whose staged copies went with records stored before: the merge never saw
        // those copies.
        var dropped: [TransactionKey: String] = [:]
        // Which hold of `settled` this file's load ended with (nil until then).
        var held: Int?
        let outcome: IngestSummary?
        do {
            outcome = try store(
                loading, settled: settled, staged: &staged, conflicting: &conflicting, dropped: &dropped,
                stopwatch: stopwatch, beforeFinishing: beforeFinishing, held: &held)
        } catch is StillBeingWritten {
            summary.filesDeferred = 1
            logger.info("left for the next run: still being written (truncated gzip)", metadata: ["file": "\(path)"])
            return summary
        }
        guard let outcome else {
            // Another process, or a twin file earlier in this run, stored the same bytes first.
            summary.filesAlreadyIngested = 1
            logger.info("already ingested (same content hash)", metadata: ["file": "\(path)"])
            return summary
        }
        if let held {
            settled.record(committed: staged, conflicting: conflicting, dropped: Set(dropped.keys), heldAt: held)
        }
        summary.add(outcome)
        logger.info(
            "ingested receipts",
            metadata: [
                "file": "\(path)", "records": "\(outcome.records)", "stored": "\(outcome.stored)",
                "already_stored": "\(outcome.alreadyStored)", "quarantined": "\(outcome.quarantined)",
                "transaction_entries": "\(outcome.transactionEntries)", "seconds": "\(stopwatch.formattedSeconds)",
            ])
        return summary
    }

    /// The file's one transaction: its `input_file` row, its rows, the merge; nil when there was nothing to load.
    private func store(
        _ file: ParsingReceiptFile, settled: SettledTransactions, staged: inout [StagedCopy],
        conflicting: inout [TransactionKey], dropped: inout [TransactionKey: String], stopwatch: Stopwatch,
        beforeFinishing: () throws -> Void, held: inout Int?
    ) throws -> IngestSummary? {
        let record = file.record
        let path = record.path
        let fileID = file.fileID
        return try connection.transaction { () throws -> IngestSummary? in
            // Checked again under the lock: another process, or a twin file earlier in this run, may have stored it.
            guard try session.claim(record.digest, path: path, complete: nil) else { return nil }
            try record.insert(id: fileID, on: connection)
            try connection.execute(script: try Self.fileSetup(), context: "prepare the transaction of \(path)")
            var counts = try load(file, settled: settled, staged: &staged)
            logger.debug("loaded rows", metadata: ["file": "\(path)", "seconds": "\(stopwatch.seconds)"])
            held = settled.hold(staged)
            try beforeFinishing()
            counts.alreadyStored = try dropRecordsStoredBefore(fileID: fileID, path: path, dropped: &dropped)
            counts.stored -= counts.alreadyStored
            if !dropped.isEmpty { try restageCopiesOfRetriedRecords(file, dropped: dropped) }
            if counts.alreadyStored > 0 && !counts.signedOutcomes.isEmpty {
                try countStoredSignedObjects(fileID: fileID, path: path, counts: &counts)
            }
            // One round trip: the new transactions (one text for both dialects), then the dialect's merge.
            try connection.execute(
                script: SQLQuery.receiptStoreNew.text + "\n" + SQLQuery.receiptMerge.text(on: queryDialect),
                context: "merge \(path)")
            // The file's last statement lists the conflicting transactions.
            guard
                let conflicts = try connection.runQueryFile(
                    .receiptCompareCopies, dialect: queryDialect, context: "compare copies from \(path)")
            else { throw IAPAuditError.internalInconsistency("receipt_compare_copies.sql ran no statement") }
            conflicting = try conflicts.allRows.map { row in
                TransactionKey(
                    environment: try row.decode(String.self, "environment"),
                    transactionID: try row.decode(String.self, "transaction_id"))
            }
            let endLine = file.isJSONLines ? file.batch.linesRead : nil
            try InputFileRecord.recordCounts(counts, endLine: endLine, fileID: fileID, on: connection)
            counts.filesIngested = 1
            logger.debug("merged", metadata: ["file": "\(path)", "seconds": "\(stopwatch.seconds)"])
            return counts
        }
    }

    /// The file's signed objects by outcome as stored, once its records stored before are gone: the outcomes were
    /// counted as they were read, and a notification Apple retried is stored once.
    private func countStoredSignedObjects(fileID: Int64, path: String, counts: inout IngestSummary) throws {
        let read = counts.signedOutcomes.values.reduce(0, +)
        let rows = try connection.query(
            """
            SELECT outcome, count(*) AS objects FROM signed_object
            WHERE receipt_id >= $1::bigint * 4294967296 AND receipt_id < ($1::bigint + 1) * 4294967296
            GROUP BY outcome
            """, [Int(fileID)], context: "count the signed objects stored from \(path)")
        counts.signedOutcomes = [:]
        for row in rows.allRows {
            counts.signedOutcomes[try row.decode(String.self, "outcome"), default: 0] += try row.decode(
                Int.self, "objects")
        }
        counts.signedObjectsAlreadyStored = read - counts.signedOutcomes.values.reduce(0, +)
    }

    /// Removes this file's records that were stored before (by an earlier file, or earlier in this one) with
    /// everything staged for them; returns how many, and notes the transactions of the staged copies dropped.
    private func dropRecordsStoredBefore(
        fileID: Int64, path: String, dropped: inout [TransactionKey: String]
    ) throws -> Int {
        // The file's last statement counts what it found; most files find none, and their deletes are not sent.
        guard
            let counted = try connection.runQueryFile(
                .receiptDedupe, parameters: [Int(fileID)], dialect: queryDialect,
                context: "find records stored before, \(path)")
        else { throw IAPAuditError.internalInconsistency("receipt_dedupe.sql ran no statement") }
        let found = try counted.first(Int.self, "count")
        if found > 0 {
            // The file's last statement lists the transactions of the staged copies it dropped.
            let rows = try connection.execute(
                script: SQLQuery.receiptDropDuplicates.text(on: queryDialect),
                context: "drop records stored before, \(path)")
            for row in rows.allRows {
                let transactionID = try row.decode(String.self, "transaction_id")
                let key = TransactionKey(
                    environment: try row.decode(String.self, "environment"), transactionID: transactionID)
                dropped[key] = transactionID
            }
        }
        return found
    }

    /// The first statements of a file's transaction, sent together: every round trip between here and the server
    /// is a moment both wait for the other, a few thousand times per million entries.
    ///
    /// JIT is off: each per-file statement does milliseconds of index probes, but the planner, short of statistics
    /// on a growing table, can cost it high enough to JIT-compile it, a third of a second per statement and file.
    /// `work_mem` is raised for the file's transaction: storing new transactions sorts the file's staged copies
    /// (`receipt_store_new.sql`'s DISTINCT ON), which past the default 4 MB went to temporary files on disk.
    private static func fileSetup() throws -> String {
        [
            "SET LOCAL jit = off;", "SET LOCAL work_mem = '\(stagingWorkMemory)';",
            FileTransaction.commitWithoutDiskFlush + ";", SQLQuery.receiptStage.text,
        ]
        .joined(separator: "\n")
    }

    /// Streams the file: its thread parses and renders rows, this one loads them. Receipts go straight into
    /// `receipt` through COPY; entries, renewals and quarantine rows are collected and loaded whenever the collection
    /// grows large, so memory stays bounded.
    private func load(
        _ file: ParsingReceiptFile, settled: SettledTransactions, staged: inout [StagedCopy]
    ) throws -> IngestSummary {
        let (batch, queue, producer) = (file.batch, file.queue, file.producer)
        let path = file.record.path
        defer {
            // The batch and its reader belong to the parsing thread until it has stopped.
            queue.cancel()
            producer.waitUntilDone()
        }
        var entries = CopyWriter()
        var links = BinaryCopyRows()
        var renewals = CopyWriter()
        var signedObjects = BinaryCopyRows()
        var quarantine = CopyWriter()
        var deferred = DeferredCopies()
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
                    try Self.appendUnsettled(
                        chunk, settled: settled, to: &entries, staged: &staged, deferred: &deferred)
                    links.append(rows: chunk.links)
                    try renewals.append(rows: chunk.renewals)
                    signedObjects.append(rows: chunk.signedObjects)
                    try quarantine.append(rows: chunk.quarantine)
                    ParsedChunk.pool.recycle(consume chunk)
                }
            }
            try connection.copyIn(ReceiptRows.entryCopy, rows: entries, context: "COPY entries from \(path)")
            try connection.copyInBinary(ReceiptRows.linkCopy, rows: links, context: "COPY links from \(path)")
            try connection.copyIn(ReceiptRows.renewalCopy, rows: renewals, context: "COPY renewals from \(path)")
            try connection.copyInBinary(
                ReceiptRows.signedObjectCopy, rows: signedObjects, context: "COPY signed objects from \(path)")
            try connection.copyIn(QuarantineRecord.copyStatement, rows: quarantine, context: "COPY quarantine")
            entries.reset()
            links.reset()
            renewals.reset()
            signedObjects.reset()
            quarantine.reset()
        }
        producer.waitUntilDone()
        return batch.counts
    }

    /// Appends the chunk's staged transaction copies that `settled` does not rule out, noting each in `staged`; keeps
    /// those it rules out in `deferred`, in case a later copy of the file says their transaction's state.
    private static func appendUnsettled(
        _ chunk: ParsedChunk, settled: SettledTransactions, to entries: inout CopyWriter, staged: inout [StagedCopy],
        deferred: inout DeferredCopies
    ) throws(PostgresError) {
        var start = 0
        for row in chunk.entryRows {
            if settled.isSettled(row.copy) {
                try deferred.keep(row.copy, rowIn: start..<row.end, of: chunk.entries)
            } else {
                try deferred.stage(before: row.copy, into: &entries, staged: &staged)
                try entries.append(rowsIn: start..<row.end, count: 1, of: chunk.entries)
                staged.append(row.copy)
            }
            start = row.end
        }
        try deferred.stageAllIfFull(into: &entries, staged: &staged)
    }
}

extension Result where Success == PreparedReceiptFile {
    /// Stops the file's parsing, if it was prepared.
    func cancelIfPrepared() {
        if case .success(let file) = self { file.cancel() }
    }
}
