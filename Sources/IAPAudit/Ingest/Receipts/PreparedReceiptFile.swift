/// A receipt file hashed and, unless its content was stored before, with its id reserved and its parsing started on
/// its own thread, so that it can overlap the previous file's load and merge.
final class PreparedReceiptFile {
    let path: String
    let digest: FileDigest
    /// The reserved `input_file.id`; nil when the content was stored before (nothing to load).
    let fileID: Int64?
    let isGzip: Bool
    let batch: ReceiptBatch?
    let queue: ChunkQueue?
    let producer: ParsingThread?

    /// Chunks a file may parse ahead of its turn: about one merge's worth of parsing, and bounded memory.
    static let chunksAhead = 16

    /// A file whose content is stored already.
    init(path: String, digest: FileDigest) {
        self.path = path
        self.digest = digest
        self.fileID = nil
        self.isGzip = false
        self.batch = nil
        self.queue = nil
        self.producer = nil
    }

    /// A file to load; its parsing starts now.
    init(path: String, digest: FileDigest, fileID: Int64, isGzip: Bool, batch: ReceiptBatch) {
        self.path = path
        self.digest = digest
        self.fileID = fileID
        self.isGzip = isGzip
        self.batch = batch
        let queue = ChunkQueue(capacity: Self.chunksAhead)
        self.queue = queue
        let producer = ParsingThread(batch: batch, queue: queue)
        self.producer = producer
        producer.start()
    }

    /// Stops the parsing thread (if it still runs) and waits for it; safe to call more than once.
    func cancel() {
        queue?.cancel()
        producer?.waitUntilDone()
    }
}

@available(*, unavailable)
extension PreparedReceiptFile: Sendable {}
