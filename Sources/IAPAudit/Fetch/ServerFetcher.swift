internal import AppleAPI

/// A fetch from the App Store Server API over many items (transactions' histories, notification windows): several
/// items at once, each to its last page, every page stored as it arrives and told to the database's thread as an
/// `Event`. `Workspace.startServerFetch` runs one with a client per configured app.
protocol ServerFetcher: Sendable {
    associatedtype Item: Sendable
    associatedtype Event: ServerFetchEvent

    init(clients: [String: AppStoreServerClient], folder: String, concurrency: Int)

    /// Items fetched at once.
    var concurrency: Int { get }

    /// One item to its last page; false when it failed, which ends the fetch.
    func fetchOne(_ item: Item, stop: StopRequest, events: EventChannel<Event>) async -> Bool
}

/// What a `ServerFetcher` tells: its own events, and the one its caller's loop ends at.
protocol ServerFetchEvent: Sendable {
    /// Every item done, or the fetch ended (sent by `startServerFetch` once the fetcher returns).
    static var finished: Self { get }
}

extension ServerFetcher {
    /// Fetches every item, at most `concurrency` at once, until one fails or a stop is asked for.
    func fetch(_ items: [Item], stop: StopRequest, events: EventChannel<Event>) async {
        await runBounded(items, concurrency: concurrency, stop: stop) { item in
            await fetchOne(item, stop: stop, events: events)
        }
    }
}
