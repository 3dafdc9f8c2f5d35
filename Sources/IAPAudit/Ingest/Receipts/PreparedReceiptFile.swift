/// A receipt file hashed and, unless there is nothing to read in it, with its id reserved and its parsing started on
/// its own thread, so that it can overlap the previous file's load and merge.
final class PreparedReceiptFile {
    /// Why a file is not read this time.
    enum Skip {
        /// Its bytes (or the part of it this read would take) are stored already.
        case alreadyIngested
        /// It changed within the settling time and its end is not a complete record yet.
        case stillBeingWritten
    }

    let path: String
    /// The `input_file` row this read writes; nil when there is nothing to read.
    let record: InputFileRecord?
    /// The reserved `input_file.id`; nil when there is nothing to read.
    let fileID: Int64?
    let skipped: Skip?
    /// JSON Lines (a later read of the grown file numbers its lines on from this one's).
    let isJSONLines: Bool
    let batch: ReceiptBatch?
    let queue: ChunkQueue?
    let producer: ParsingThread?

    /// Chunks a file may parse ahead of its turn: about one merge's worth of parsing, and bounded memory.
    static let chunksAhead = 16

    /// A file with nothing to read this time.
    init(path: String, skipped: Skip) {
        self.path = path
        self.record = nil
        self.fileID = nil
        self.skipped = skipped
        self.isJSONLines = false
        self.batch = nil
        self.queue = nil
        self.producer = nil
    }

    /// A file to load; its parsing starts now.
    init(record: InputFileRecord, fileID: Int64, isJSONLines: Bool, batch: ReceiptBatch) {
        self.path = record.path
        self.record = record
        self.fileID = fileID
        self.skipped = nil
        self.isJSONLines = isJSONLines
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
