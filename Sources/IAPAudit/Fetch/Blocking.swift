internal import Dispatch
internal import Synchronization

/// Runs async work to its end from the synchronous pipeline (whose thread is not one of the cooperative pool's, so
/// waiting on it blocks nothing the work needs).
func waitForAsync<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
    let result = Mutex<Value?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    guard let value = result.withLock({ $0 }) else { fatalError("async work ended without a value") }
    return value
}
