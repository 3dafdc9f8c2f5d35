internal import Foundation

/// Runs a `ReceiptBatch` on its own thread, feeding a `ChunkQueue`.
///
/// A plain thread, not a Task: parsing is blocking CPU work, and the batch's reader must stay on one thread.
final class ParsingThread: @unchecked Sendable {
    // @unchecked: `batch` is touched only by the thread between start() and the `done` signal; the owner reads the
    // batch again only after waitUntilDone().
    private let batch: ReceiptBatch
    private let queue: ChunkQueue
    private let done = DispatchSemaphore(value: 0)
    private var hasStarted = false
    private var hasFinished = false

    init(batch: ReceiptBatch, queue: ChunkQueue) {
        self.batch = batch
        self.queue = queue
    }

    func start() {
        hasStarted = true
        let thread = Thread { [self] in
            do {
                while !batch.isDone {
                    var chunk = ParsedChunk()
                    try Self.inTurn { try batch.fill(&chunk, until: ReceiptIngest.chunkSize) }
                    guard queue.put(chunk) else { break }
                }
                queue.finish()
            } catch {
                queue.finish(throwing: error)
            }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// One file parses at a time, its batches on `ReceiptBatch.workers` threads. Files parse ahead
    /// (`ReceiptIngest.filesParsedAhead`), and each on every core would compete with the server's backend, whose speed
    /// is the ingest's, and with the thread that feeds it: in a 1M-entry load they waited for a core 2.0 s and 3.3 s
    /// with two files parsing at once, 1.5 s and 2.3 s with one.
    private static let turn = DispatchSemaphore(value: 1)

    /// Runs `work` in this thread's turn to parse; the turn passes on when it is done, never while a queue is full.
    private static func inTurn(_ work: () throws -> Void) rethrows {
        turn.wait()
        defer { turn.signal() }
        try work()
    }

    /// Waits for the thread to stop; safe to call more than once.
    func waitUntilDone() {
        guard hasStarted, !hasFinished else { return }
        done.wait()
        hasFinished = true
    }
}
