internal import Foundation

/// One receipt file's transaction, run on a thread of its own so that the next file's rows can stream in on the other
/// connection while this one's per-file statements (dedupe, merge, compare) run on the server.
///
/// Files still finish in order: a run's statements wait for the run before it to end (`waitForTurn`), so a record
/// that repeats one of the file before is found stored and dropped, exactly as one file after another would.
final class FileRun: @unchecked Sendable {
    // @unchecked: `isLoaded` and `outcome` are read and written only while `condition` is locked; the thread's body
    // is handed over once, in `start`.
    let index: Int
    let path: String
    private let previous: FileRun?
    private let condition = NSCondition()
    private var isLoaded = false
    private var outcome: Result<IngestSummary, any Error>?

    /// A run that finishes after `previous` (nil: the first).
    init(index: Int, path: String, after previous: FileRun?) {
        self.index = index
        self.path = path
        self.previous = previous
    }

    /// Runs `body` on `thread`; `body` calls the closure it is given once its rows are loaded, before its
    /// statements, and goes on only when the run before this one has ended.
    func start(on thread: LaneThread, _ body: @escaping (_ beforeFinishing: () throws -> Void) throws -> IngestSummary)
    {
        thread.run { [self] in
            let result = Result {
                try body {
                    markLoaded()
                    try previous?.waitForTurn()
                }
            }
            condition.lock()
            isLoaded = true
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Waits until the run's rows are loaded (or it ended without them).
    func waitUntilLoaded() {
        condition.lock()
        defer { condition.unlock() }
        while !isLoaded { condition.wait() }
    }

    /// Waits for the run to end; its summary, or why the file was not stored.
    func waitForOutcome() -> Result<IngestSummary, any Error> {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let outcome { return outcome }
            condition.wait()
        }
    }

    private func markLoaded() {
        condition.lock()
        isLoaded = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for this run to end; throws when it ended with what stops the batch (the database is gone), so the run
    /// after it rolls back rather than commit a file after the one whose failure ends the batch.
    private func waitForTurn() throws {
        if case .failure(let error) = waitForOutcome(), FileFailure(path: path, error: error) == nil {
            throw EarlierFileStoppedTheBatch()
        }
    }

    /// The run's file was rolled back because the one before it stopped the batch; never reported (the earlier
    /// file's error is).
    struct EarlierFileStoppedTheBatch: Error {}
}

/// A thread that runs a lane's file transactions one after another, for the whole ingest. A thread per file made
/// each file's load buffers (megabytes, freed at its end) land in whichever allocator arena that thread was given,
/// and peak RSS grew by a quarter (4 × the standard data: 197–207 MiB against 157–162 before, 165–167 with these
/// threads); on one thread per lane they are reused.
final class LaneThread: @unchecked Sendable {
    // @unchecked: `work` and `isClosed` are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var work: [UncheckedSendable<() -> Void>] = []
    private var isClosed = false

    init() {
        let thread = Thread { [self] in serve() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues `body` behind what the thread has to do.
    func run(_ body: @escaping () -> Void) {
        condition.lock()
        work.append(UncheckedSendable(body))
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the thread end once it has run what is queued.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while work.isEmpty && !isClosed { condition.wait() }
            guard !work.isEmpty else {
                condition.unlock()
                return
            }
            let next = work.removeFirst()
            condition.unlock()
            next.value()
        }
    }
}
