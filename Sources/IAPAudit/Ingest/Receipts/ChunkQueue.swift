internal import Foundation

/// A small bounded queue between the thread that parses a file and the one that loads it into PostgreSQL.
///
/// Parsing (our CPU) and COPY (the server's CPU) then overlap on two cores, and memory stays bounded: the parser
/// waits when `capacity` chunks are queued.
final class ChunkQueue: @unchecked Sendable {
    // @unchecked: every mutable field is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var chunks: [ParsedChunk] = []
    private var isFinished = false
    private var isCancelled = false
    private var failure: (any Error)?
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues a chunk, waiting for room; false when the consumer gave up (stop producing).
    func put(_ chunk: ParsedChunk) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !isCancelled { condition.wait() }
        guard !isCancelled else { return false }
        chunks.append(chunk)
        condition.broadcast()
        return true
    }

    /// Marks the end of the chunks, with the producer's error if it failed.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        isFinished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk, waiting for one; nil after the last. Rethrows the producer's failure.
    func take() throws -> ParsedChunk? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !isFinished { condition.wait() }
        if !chunks.isEmpty {
            let chunk = chunks.removeFirst()
            condition.broadcast()
            return chunk
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the producer to stop (the consumer failed).
    func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
