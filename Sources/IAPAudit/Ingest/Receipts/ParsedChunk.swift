internal import Foundation
internal import Postgres

/// Rows rendered from a stretch of one receipt file, handed from the parsing thread to the loading one.
struct ParsedChunk: @unchecked Sendable {
    // @unchecked: a chunk's writers are detached (no connection) and the chunk moves between threads only through
    // `ChunkQueue` and `ParsedChunk.pool`, which hand each one over exactly once.
    var receipts = BinaryCopyRows()
    var entries = CopyWriter()
    /// For each row of `entries`: the transaction copy it stages and where the row ends in `entries`' bytes.
    var entryRows: [(copy: StagedCopy, end: Int)] = []
    var links = BinaryCopyRows()
    var renewals = CopyWriter()
    var signedObjects = BinaryCopyRows()
    var quarantine = CopyWriter()

    /// Chunks loaded and emptied, their buffers kept for the next ones, across the files of the process.
    static let pool = Pool()

    /// Empties the chunk, keeping its buffers' memory.
    mutating func reset() {
        receipts.reset()
        entries.reset()
        entryRows.removeAll(keepingCapacity: true)
        links.reset()
        renewals.reset()
        signedObjects.reset()
        quarantine.reset()
    }

    /// A few emptied chunks kept for reuse. A new chunk's megabytes were fresh pages every time: the allocator hands
    /// memory that large back to the system when it is freed, and faulting it in again was about 5% of ingest's
    /// client CPU on real-sized receipts. At most `limit` chunks are kept (the loader empties one while the parser
    /// fills the next), so memory stays bounded.
    final class Pool: @unchecked Sendable {
        // @unchecked: `spare` is read and written only while `lock` is held.
        private let lock = NSLock()
        private var spare: [ParsedChunk] = []
        static let limit = 4

        /// An empty chunk: a kept one, or a new one with room for a chunk's receipt rows (they end a record past
        /// the limit, so the buffer is not copied as it doubles).
        func take() -> ParsedChunk {
            lock.lock()
            let kept = spare.popLast()
            lock.unlock()
            if let kept { return kept }
            var chunk = ParsedChunk()
            chunk.receipts.reserveCapacity(ReceiptIngest.chunkSize + ReceiptBatch.batchBytes)
            return chunk
        }

        /// Keeps a loaded chunk's buffers for a later `take`, unless `limit` chunks are kept already.
        func recycle(_ chunk: consuming ParsedChunk) {
            chunk.reset()  // the buffers' only owner now: emptied in place
            lock.lock()
            defer { lock.unlock() }
            if spare.count < Self.limit { spare.append(chunk) }
        }
    }
}
