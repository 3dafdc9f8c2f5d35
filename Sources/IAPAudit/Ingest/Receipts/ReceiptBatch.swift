internal import AppStoreFormats
internal import AppStoreSignatures
internal import Logging
internal import Postgres

/// Reads and parses one receipt file into rendered rows, chunk by chunk (on the parsing thread).
final class ReceiptBatch {
    private let reader: ReceiptFileReader
    private let parser: ReceiptRecordParser
    private let verifier: SignatureVerifier
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

    init(
        reader: ReceiptFileReader, parser: ReceiptRecordParser, verifier: SignatureVerifier, fileID: Int64,
        path: String, runID: Int64?, logger: Logger
    ) {
        self.reader = reader
        self.parser = parser
        self.verifier = verifier
        self.fileID = fileID
        self.path = path
        self.runID = runID
        self.logger = logger
    }

    /// Reads records into `chunk` until its receipt rows reach `limit` bytes or the file ends.
    func fill(_ chunk: inout ParsedChunk, until limit: Int) throws {
        while chunk.receipts.byteCount < limit {
            guard let item = reader.next() else {
                isDone = true
                return
            }
            switch item {
            case .record(let line, let number, let bytes):
                counts.records += 1
                var receipt: RecordedReceipt
                do {
                    receipt = try parser.parse(bytes)
                } catch {
                    try quarantine(
                        QuarantineRecord(
                            line: line, recordNumber: number, reason: error.code, message: error.message,
                            excerpt: Array(bytes)), into: &chunk.quarantine)
                    continue
                }
                let receiptID = ReceiptRows.receiptID(fileID: fileID, recordNumber: number)
                if !receipt.signedObjects.isEmpty {
                    let outcomes = receipt.signedObjects.map { verifier.verify($0.jws) }
                    try ReceiptRows.appendSignedObjects(
                        receipt, outcomes: outcomes, receiptID: receiptID, to: &chunk.signedObjects)
                    receipt.keepVerified(outcomes.map { $0 == .verified })
                    for outcome in outcomes { counts.signedOutcomes[outcome.rawValue, default: 0] += 1 }
                }
                ReceiptRows.appendReceipt(
                    receipt, fileID: fileID, recordNumber: number, line: line, to: &chunk.receipts)
                try ReceiptRows.appendLinks(receipt, receiptID: receiptID, to: &chunk.links)
                try ReceiptRows.appendRenewals(receipt, receiptID: receiptID, to: &chunk.renewals)
                for entry in receipt.transactions {
                    guard let copy = copies.stagingCandidate(entry, environment: receipt.environment(of: entry))
                    else { continue }
                    try ReceiptRows.appendStagedEntry(entry, of: receipt, receiptID: receiptID, to: &chunk.entries)
                    chunk.entryRows.append((copy, chunk.entries.byteCount))
                }
                counts.stored += 1
                counts.transactionEntries += receipt.transactions.count
            case .unreadable(let line, let number, let reason, let message, let excerpt):
                if isStillBeingWritten && reason == .truncatedGzip { throw StillBeingWritten() }
                if number != nil { counts.records += 1 } else { counts.quarantinedFileProblems += 1 }
                try quarantine(
                    QuarantineRecord(
                        line: line, recordNumber: number, reason: reason, message: message, excerpt: excerpt),
                    into: &chunk.quarantine)
            }
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
