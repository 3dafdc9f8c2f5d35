internal import Dispatch
internal import Synchronization

/// Events from async work to the synchronous thread that owns the database connection: the work sends, the thread
/// takes them one by one (blocking until one comes) and writes what they say.
final class EventChannel<Event: Sendable>: Sendable {
    private let queue = Mutex<[Event]>([])
    private let ready = DispatchSemaphore(value: 0)

    func send(_ event: Event) {
        queue.withLock { $0.append(event) }
        ready.signal()
    }

    /// The next event; blocks until there is one.
    func next() -> Event {
        ready.wait()
        return queue.withLock { $0.removeFirst() }
    }
}
