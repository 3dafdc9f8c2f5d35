internal import AppleAPI

/// A fetch from the App Store Server API over many items (transactions' histories, notification windows): several
/// items at once, each to its last page, every page stored as it arrives and told to the database's thread as
/// `Progress`. `Workspace.runServerFetch` runs one with a client per configured app.
protocol ServerFetcher: Sendable {
    associatedtype Item: Sendable
    /// What the fetcher tells of one page (or one item) for the database's thread to record.
    associatedtype Progress: Sendable

    init(clients: [String: AppStoreServerClient], folder: String, concurrency: Int)

    /// Items fetched at once.
    var concurrency: Int { get }

    /// One item to its last page, each page told through `tell` once its file is stored; false when the item has no
    /// client to ask. What it throws ends the whole fetch.
    func fetchPages(_ item: Item, stop: StopRequest, tell: (Progress) -> Void) async throws -> Bool
}

/// What a running `ServerFetcher` sends to the database's thread.
enum ServerFetchEvent<Progress: Sendable>: Sendable {
    case progress(Progress)
    /// A failure that ends the fetch (the first one decides the exit code).
    case failed(UncheckedFailure)
    /// Every item done, or the fetch ended (sent by `runServerFetch` once the fetcher returns).
    case finished
}

extension ServerFetcher {
    /// Fetches every item, at most `concurrency` at once, until one fails or a stop is asked for.
    func fetch(_ items: [Item], stop: StopRequest, events: EventChannel<ServerFetchEvent<Progress>>) async {
        await runBounded(items, concurrency: concurrency, stop: stop) { item in
            do {
                return try await fetchPages(item, stop: stop) { events.send(.progress($0)) }
            } catch is CancellationError {
                return false
            } catch {
                events.send(.failed(UncheckedFailure(error: error)))
                return false
            }
        }
    }
}
