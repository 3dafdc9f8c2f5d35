internal import AppleAPI
internal import Foundation

/// The App Store Server API fetches (`fetch notifications`, `fetch history`): one fetcher off this thread, what it
/// tells recorded here, on the thread that owns the database connection.
extension Workspace {
    /// Runs a `Fetcher` over `items` with a client per configured app, hands each `Progress` it tells to `record` (on
    /// this thread, in order), then adds the clients' requests to the summary and records what ended the fetch early
    /// (its first failure, else a stop request). What `record` throws ends the fetch and is thrown.
    func runServerFetch<Fetcher: ServerFetcher>(
        _ fetcher: Fetcher.Type, _ items: [Fetcher.Item], folder: String, server: FetchPlan.ServerPlan,
        plan: FetchPlan, stop: StopRequest, into summary: inout FetchSummary,
        record: (Fetcher.Progress) throws -> Void
    ) throws {
        let (clients, https) = try serverClients(server, plan: plan, stop: stop)
        let events = EventChannel<ServerFetchEvent<Fetcher.Progress>>()
        let fetcher = Fetcher(clients: clients, folder: folder, concurrency: plan.concurrency)
        Task {
            await fetcher.fetch(items, stop: stop, events: events)
            for http in https { await http.shutdown() }
            events.send(.finished)
        }
        var failure: (any Error)?
        loop: while true {
            switch events.next() {
            case .progress(let progress):
                try record(progress)
            case .failed(let error):
                if failure == nil { failure = error.error }
            case .finished:
                break loop
            }
        }
        for http in https { count(http, into: &summary) }
        if failure == nil, let signal = stop.signal { failure = IAPAuditError.interrupted(signal: signal) }
        if let failure { try recordFetchFailure(failure, into: &summary) }
    }

    /// One App Store Server API client per configured app (a token names its bundle id), and the HTTP clients to shut
    /// down when the fetch ends.
    private func serverClients(
        _ server: FetchPlan.ServerPlan, plan: FetchPlan, stop: StopRequest
    ) throws(IAPAuditError) -> (clients: [String: AppStoreServerClient], http: [AppleHTTPClient]) {
        var clients: [String: AppStoreServerClient] = [:]
        var https: [AppleHTTPClient] = []
        do {
            for bundleID in server.bundleIDs {
                let http = try AppleHTTPClient(
                    baseURL: server.url, service: .appStoreServer,
                    tokens: TokenIssuer(key: server.key, bundleID: bundleID),
                    policy: plan.policy, concurrency: plan.concurrency, shouldStop: { stop.signal != nil })
                https.append(http)
                clients[bundleID] = AppStoreServerClient(http: http)
            }
        } catch {
            throw IAPAuditError.apple(error)
        }
        return (clients, https)
    }
}
