/// A receipt file hashed and judged: nothing to read in it this time, or a load whose id is reserved and whose parsing
/// has started on its own thread, so that it can overlap the previous file's load and merge.
enum PreparedReceiptFile {
    /// Why a file is not read this time.
    enum Skip {
        /// Its bytes (or the part of it this read would take) are stored already.
        case alreadyIngested
        /// It changed within the settling time and its end is not a complete record yet.
        case stillBeingWritten
    }

    /// Nothing to read this time.
    case skipped(path: String, Skip)
    /// A file to load, already being parsed.
    case parsing(ParsingReceiptFile)

    var path: String {
        switch self {
        case .skipped(let path, _): path
        case .parsing(let file): file.record.path
        }
    }

    /// Stops the parsing thread, if there is one (and it still runs), and waits for it; safe to call more than once.
    func cancel() {
        if case .parsing(let file) = self { file.cancel() }
    }
}

/// A receipt file to load: the `input_file` row this read writes, its reserved id, and the thread parsing it.
final class ParsingReceiptFile {
    let record: InputFileRecord
    /// The reserved `input_file.id`.
    let fileID: Int64
    /// JSON Lines (a later read of the grown file numbers its lines on from this one's).
    let isJSONLines: Bool
    let batch: ReceiptBatch
    let queue: ChunkQueue
    let producer: ParsingThread
    /// A new batch over the same bytes, for a second read (see `ReceiptIngest.restageCopiesOfRetriedRecords`).
    let reread: () throws -> ReceiptBatch

    /// Chunks a file may parse ahead of its turn: about one merge's worth of parsing, and bounded memory.
    static let chunksAhead = 16

    /// Starts parsing the file.
    init(
        record: InputFileRecord, fileID: Int64, isJSONLines: Bool, batch: ReceiptBatch,
        reread: @escaping () throws -> ReceiptBatch
    ) {
        self.record = record
        self.fileID = fileID
        self.isJSONLines = isJSONLines
        self.batch = batch
        self.reread = reread
        queue = ChunkQueue(capacity: Self.chunksAhead)
        producer = ParsingThread(batch: batch, queue: queue)
        producer.start()
    }

    /// Stops the parsing thread (if it still runs) and waits for it; safe to call more than once.
    func cancel() {
        queue.cancel()
        producer.waitUntilDone()
    }
}

@available(*, unavailable)
extension ParsingReceiptFile: Sendable {}
