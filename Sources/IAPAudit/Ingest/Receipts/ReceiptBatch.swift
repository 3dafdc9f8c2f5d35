internal import AppStoreFormats
internal import AppStoreSignatures
internal import Foundation
internal import Logging
internal import Postgres

/// Reads and parses one receipt file into rendered rows, chunk by chunk (on the parsing thread).
final class ReceiptBatch {
    private let reader: ReceiptFileReader
    private let parser: ReceiptRecordParser
    private let signatures: VerifiedSignatures
    private let fileID: Int64
    private let path: String
    private let runID: Int64?
    private let logger: Logger

    private(set) var counts = IngestSummary()
    /// Changed within the settling time: a truncated end means the writer is not done, not that the file is broken.
    var isStillBeingWritten = false
    /// The last line read (JSON Lines), valid once the batch is done.
    var linesRead: Int { reader.lastLineNumber }
    private var copies = TransactionCopies()
    /// The reader has no more records.
    private(set) var isDone = false
    /// The parsed records' keys folded in file order: a second read of the file (`restaging`) checks it read the same
    /// records.
    private(set) var recordKeys: UInt64 = 0
    /// Set for a second read of the file: only the staged copies of some transactions are rendered.
    var restaging: Restaging?
    /// The line of the last record or unreadable line read.
    private(set) var lastLine = 0

    /// What a second read renders (`ReceiptIngest.restageCopiesOfRetriedRecords`): the staged copies of
    /// `transactions` that the file gives without its `retriedRecords` (record numbers), and nothing else.
    struct Restaging {
        var transactions: Set<TransactionKey>
        var retriedRecords: Set<Int>
        /// The first read's last line.
        var throughLine: Int
    }

    init(
        reader: ReceiptFileReader, parser: ReceiptRecordParser, signatures: VerifiedSignatures, fileID: Int64,
        path: String, runID: Int64?, logger: Logger
    ) {
        self.reader = reader
        self.parser = parser
        self.signatures = signatures
        self.fileID = fileID
        self.path = path
        self.runID = runID
        self.logger = logger
    }

    /// Records read, parsed and verified together before they are rendered in file order: at most this many, and no
    /// more once their bytes reach `batchBytes` (a few large receipts are a batch of their own), so memory stays
    /// bounded whatever the records' size.
    static let batchSize = 128
    static let batchBytes = 2 << 20
    /// Threads that parse and verify a batch: parsing and ES256 are pure work on bytes, rendering is not.
    static let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))

    /// A record's bytes, owned (the reader reuses its buffer), or what made it unreadable.
    private enum Item {
        case record(line: Int, number: Int, bytes: [UInt8])
        case unreadable(line: Int, number: Int?, reason: QuarantineReason, message: String, excerpt: [UInt8])
    }

    /// A record parsed, with each of its signed objects' outcomes and its record key; or why it could not be parsed.
    private typealias Parsed = Result<
        (receipt: RecordedReceipt, outcomes: [VerificationOutcome], recordKey: Int), ReceiptRecordError
    >

    /// Reads records into `chunk` until its receipt rows reach `limit` bytes or the file ends.
    func fill(_ chunk: inout ParsedChunk, until limit: Int) throws {
        while chunk.receipts.byteCount < limit {
            var items: [Item] = []
            var bytesRead = 0
            reading: while items.count < Self.batchSize && bytesRead < Self.batchBytes {
                guard let item = reader.next() else {
                    isDone = true
                    break
                }
                switch item {
                case .record(let line, let number, let bytes):
                    if isPastFirstRead(line) { break reading }
                    lastLine = line
                    bytesRead += bytes.count
                    items.append(.record(line: line, number: number, bytes: Array(bytes)))
                case .unreadable(let line, let number, let reason, let message, let excerpt):
                    if isPastFirstRead(line) { break reading }
                    lastLine = line
                    items.append(
                        .unreadable(line: line, number: number, reason: reason, message: message, excerpt: excerpt))
                }
            }
            let parsed = parseAndVerify(items)
            for (item, result) in zip(items, parsed) {
                try append(item, result, to: &chunk)
            }
            if isDone { return }
        }
    }

    /// Parses and verifies the batch's records on `workers` threads, each a contiguous slice; nil for what is no record.
    /// Each record's key is hashed here too: the SHA-256 of every byte of every record is pure work like parsing, and
    /// on the thread that renders rows in file order it held up the load (a seventh of its time on 4 kB records).
    private func parseAndVerify(_ items: [Item]) -> [Parsed?] {
        let parser = self.parser
        let signatures = self.signatures
        var results = [Parsed?](repeating: nil, count: items.count)
        let slices = min(Self.workers, max(1, items.count / 16))
        results.withUnsafeMutableBufferPointer { buffer in
            let output = UncheckedSendable(buffer)
            DispatchQueue.concurrentPerform(iterations: slices) { slice in
                let range = (items.count * slice / slices)..<(items.count * (slice + 1) / slices)
                for index in range {
                    guard case .record(_, _, let bytes) = items[index] else { continue }
                    do throws(ReceiptRecordError) {
                        let receipt = try parser.parse(bytes)
                        let outcomes = receipt.signedObjects.map { signatures.outcome(of: $0.jws) }
                        output.value[index] = .success((receipt, outcomes, ReceiptRows.recordKey(receipt)))
                    } catch {
                        output.value[index] = .failure(error)
                    }
                }
            }
        }
        return results
    }

    /// A second read ends where the first ended: a line a recorder appended since waits for the next run.
    private func isPastFirstRead(_ line: Int) -> Bool {
        guard let restaging, line > restaging.throughLine else { return false }
        isDone = true
        return true
    }

    /// Renders one item's rows into `chunk`, in file order.
    private func append(_ item: Item, _ parsed: Parsed?, to chunk: inout ParsedChunk) throws {
        switch item {
        case .record(let line, let number, let bytes):
            counts.records += 1
            var receipt: RecordedReceipt
            let outcomes: [VerificationOutcome]
            let recordKey: Int
            switch parsed {
            case .success(let value)?:
                (receipt, outcomes, recordKey) = value
            case .failure(let error)?:
                try quarantine(
                    QuarantineRecord(
                        line: line, recordNumber: number, reason: error.code, message: error.message, excerpt: bytes),
                    into: &chunk.quarantine)
                return
            case nil:
                throw IAPAuditError.internalInconsistency("record \(number) of \(path) was not parsed")
            }
            let receiptID = ReceiptRows.receiptID(fileID: fileID, recordNumber: number)
            recordKeys = (recordKeys ^ UInt64(UInt(bitPattern: recordKey))) &* 0x100_0000_01B3
            if !receipt.signedObjects.isEmpty {
                if restaging == nil {
                    ReceiptRows.appendSignedObjects(
                        receipt, outcomes: outcomes, receiptID: receiptID, to: &chunk.signedObjects)
                    for outcome in outcomes { counts.signedOutcomes[outcome.rawValue, default: 0] += 1 }
                }
                receipt.keepVerified(outcomes.map { $0 == .verified })
            }
            receipt.keepPurchaseEnvironments()
            if let restaging {
                if !restaging.retriedRecords.contains(number) {
                    try appendStagedEntries(of: receipt, receiptID: receiptID, to: &chunk, only: restaging.transactions)
                }
                return
            }
            ReceiptRows.appendReceipt(
                receipt, recordKey: recordKey, fileID: fileID, recordNumber: number, line: line, to: &chunk.receipts)
            ReceiptRows.appendLinks(receipt, receiptID: receiptID, to: &chunk.links)
            try ReceiptRows.appendRenewals(receipt, receiptID: receiptID, to: &chunk.renewals)
            try appendStagedEntries(of: receipt, receiptID: receiptID, to: &chunk)
            counts.stored += 1
            counts.transactionEntries += receipt.transactions.count
        case .unreadable(let line, let number, let reason, let message, let excerpt):
            if isStillBeingWritten && reason == .truncatedGzip { throw StillBeingWritten() }
            if number != nil { counts.records += 1 } else { counts.quarantinedFileProblems += 1 }
            try quarantine(
                QuarantineRecord(line: line, recordNumber: number, reason: reason, message: message, excerpt: excerpt),
                into: &chunk.quarantine)
        }
    }

    /// Renders the receipt's transaction copies that must be staged (`TransactionCopies`), of `transactions` only
    /// when given.
    private func appendStagedEntries(
        of receipt: RecordedReceipt, receiptID: Int, to chunk: inout ParsedChunk,
        only transactions: Set<TransactionKey>? = nil
    ) throws {
        for entry in receipt.transactions {
            guard let copy = copies.stagingCandidate(entry, environment: receipt.environment(of: entry)),
                transactions?.contains(copy.transaction) ?? true
            else { continue }
            try ReceiptRows.appendStagedEntry(entry, of: receipt, receiptID: receiptID, to: &chunk.entries)
            chunk.entryRows.append((copy, chunk.entries.byteCount))
        }
    }

    private func quarantine(_ record: QuarantineRecord, into rows: inout CopyWriter) throws {
        try record.append(to: &rows, fileID: fileID, path: path, runID: runID)
        counts.quarantined += 1
        counts.quarantinedByReason[record.reason.rawValue, default: 0] += 1
        logger.debug(
            "quarantined",
            metadata: ["file": "\(path)", "line": "\(record.line)", "reason": "\(record.reason.rawValue)"])
    }
}

@available(*, unavailable)
extension ReceiptBatch: Sendable {}

/// A file that turned out to be incomplete while it is still young: its load is rolled back and a later run reads it.
struct StillBeingWritten: Error {}
