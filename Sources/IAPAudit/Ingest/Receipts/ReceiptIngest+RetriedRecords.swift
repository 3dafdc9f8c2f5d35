internal import Foundation
internal import Logging
internal import Postgres

extension ReceiptIngest {
    /// Stages again the copies a file's dropped records (stored before: a recorder's retry) kept out of staging.
    ///
    /// The loader learns which records were stored before only once the whole file is in, and `TransactionCopies`
    /// has by then skipped every later copy that repeated one of theirs: a reversal of a refund, say, in a kept record
    /// after the retry. So for each transaction whose staged copies the drop took and that a kept record of the file
    /// links too, the remaining staged copies are removed and the file is read a second time, staging that
    /// transaction's copies as the file without its dropped records gives them (none skipped as settled: a settled
    /// copy staged changes nothing). Retries are rare; a file without one never comes here.
    func restageCopiesOfRetriedRecords(_ file: ParsingReceiptFile, dropped: [TransactionKey: String]) throws {
        let path = file.record.path
        guard
            let found = try connection.runQueryFile(
                .receiptRestage,
                parameters: [Int(file.fileID), Array(Set(dropped.values))],
                context: "find the copies to stage again, \(path)")
        else { throw IAPAuditError.internalInconsistency("receipt_restage.sql ran no statement") }
        var restaging = ReceiptBatch.Restaging(
            transactions: [], retriedRecords: [], throughLine: file.batch.lastLine)
        for row in found.allRows {
            if let retried = try row.decode(Int?.self, "retried_id") {
                restaging.retriedRecords.insert(retried - ReceiptRows.receiptID(fileID: file.fileID, recordNumber: 0))
            } else {
                restaging.transactions.insert(
                    TransactionKey(
                        environment: try row.decode(String.self, "environment"),
                        transactionID: try row.decode(String.self, "transaction_id")))
            }
        }
        guard !restaging.transactions.isEmpty else { return }
        let batch = try file.reread()
        batch.restaging = restaging
        let reading = ParsingReceiptFile(
            record: file.record, fileID: file.fileID, isJSONLines: file.isJSONLines, batch: batch,
            reread: file.reread)
        defer { reading.cancel() }
        var entries = CopyWriter()
        while let chunk = try reading.queue.take() {
            try entries.append(rows: chunk.entries)
            ParsedChunk.pool.recycle(consume chunk)
            if entries.byteCount >= Self.entryBufferLimit {
                try connection.copyIn(ReceiptRows.entryCopy, rows: entries, context: "COPY entries again from \(path)")
                entries.reset()
            }
        }
        try connection.copyIn(ReceiptRows.entryCopy, rows: entries, context: "COPY entries again from \(path)")
        reading.cancel()
        // The same bytes, read twice, give the same records; a file rewritten in between is refused, not mixed (one
        // appended to is read again only as far as the first read went).
        guard batch.recordKeys == file.batch.recordKeys else {
            throw IAPAuditError.input("\(path) changed while it was being read; a later run reads it again")
        }
        logger.debug(
            "staged again the copies of transactions a retried record held",
            metadata: ["file": "\(path)", "transactions": "\(restaging.transactions.count)"])
    }
}
