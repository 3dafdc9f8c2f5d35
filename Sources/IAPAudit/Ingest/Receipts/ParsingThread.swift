internal import Foundation
internal import Postgres

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
                    var chunk = ParsedChunk.pool.take()
                    try batch.fill(&chunk, until: ReceiptIngest.chunkSize)
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

    /// Waits for the thread to stop; safe to call more than once.
    func waitUntilDone() {
        guard hasStarted, !hasFinished else { return }
        done.wait()
        hasFinished = true
    }
}
