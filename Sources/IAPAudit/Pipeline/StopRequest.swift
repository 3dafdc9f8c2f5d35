internal import Synchronization

/// A stop asked for by a signal (SIGINT, SIGTERM): the pipeline finishes the file it is on and stops between files.
package final class StopRequest: Sendable {
    private let signalNumber = Atomic<Int32>(0)

    /// A request that nobody has made yet.
    package init() {}

    /// Records the signal that asked to stop (the first one wins).
    package func request(signal: Int32) {
        _ = signalNumber.compareExchange(expected: 0, desired: signal, ordering: .sequentiallyConsistent)
    }

    /// The signal that asked to stop, if any.
    package var signal: Int32? {
        let value = signalNumber.load(ordering: .sequentiallyConsistent)
        return value == 0 ? nil : value
    }

    /// Throws `IAPAuditError.interrupted` once a stop was requested.
    func check() throws(IAPAuditError) {
        if let signal { throw IAPAuditError.interrupted(signal: signal) }
    }
}
