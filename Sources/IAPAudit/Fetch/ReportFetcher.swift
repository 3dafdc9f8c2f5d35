internal import AppleAPI
internal import Foundation
internal import Synchronization

/// Downloads reports, at most `concurrency` at once, into the spool's reports folder, each stored as it arrives.
///
/// A 401/403, a retry bound spent, or a report that cannot be stored ends the fetch: the requests in flight are
/// cancelled, nothing half-written stays, and what was stored before stays stored.
struct ReportFetcher: Sendable {
    /// What Apple answered for one report that was asked for.
    enum Outcome: Sendable, Equatable {
        case stored(bytes: Int)
        case noSales
        case notPublished
    }

    let client: AppStoreConnectClient
    let folder: String
    let concurrency: Int

    /// Fetches `requests`; returns the outcome of each request answered, and the error that ended the fetch early.
    func fetch(
        _ requests: [ReportRequest], stop: StopRequest, progress: @escaping @Sendable (Int, String) -> Void
    ) async -> (outcomes: [ReportRequest: Outcome], failure: (any Error)?) {
        var outcomes: [ReportRequest: Outcome] = [:]
        var failure: (any Error)?
        var pending = requests[...]
        await withTaskGroup(of: (ReportRequest, Result<Outcome, any Error>).self) { group in
            func enqueue() {
                guard failure == nil, stop.signal == nil, let request = pending.popFirst() else { return }
                group.addTask {
                    do {
                        switch try await client.fetch(request) {
                        case .report(let bytes):
                            try SpoolWriter.store(bytes, name: request.fileName, in: folder)
                            return (request, .success(.stored(bytes: bytes.count)))
                        case .noSales: return (request, .success(.noSales))
                        case .notPublished: return (request, .success(.notPublished))
                        }
                    } catch {
                        return (request, .failure(error))
                    }
                }
            }
            // Twice the connection limit in flight keeps every connection busy while answers are stored.
            for _ in 0..<(max(1, concurrency) * 2) { enqueue() }
            while let (request, result) = await group.next() {
                switch result {
                case .success(let outcome):
                    outcomes[request] = outcome
                    progress(outcomes.count, request.fileName)
                case .failure(let error):
                    if failure == nil, !(error is CancellationError) {
                        failure = error
                        group.cancelAll()
                    }
                }
                enqueue()
            }
        }
        if failure == nil, let signal = stop.signal { failure = IAPAuditError.interrupted(signal: signal) }
        return (outcomes, failure)
    }
}
