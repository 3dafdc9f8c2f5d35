internal import AppleAPI
internal import Foundation

/// Fetches notification-history windows, several at once, each page by page, every page stored as it arrives.
///
/// What happens is sent to the database's thread as `Progress`, which records each page's pagination token after its
/// file is stored: killed between the two, the next fetch finds the page file the database does not count and goes
/// on from the token inside it, so no page is fetched or stored twice.
struct NotificationFetcher: ServerFetcher {
    enum Progress: Sendable {
        /// A page was stored (or, repeating the page before it, skipped); `next` is the token for the page after.
        case page(window: NotificationWindow, number: Int, next: String?, hasMore: Bool, count: Int, repeated: Bool)
        /// Apple refused the window's token; it starts again from its first page.
        case restarted(window: NotificationWindow)
    }

    let clients: [String: AppStoreServerClient]
    let folder: String
    let concurrency: Int

    /// One window to its last page.
    func fetchPages(_ start: NotificationWindow, stop: StopRequest, tell: (Progress) -> Void) async throws -> Bool {
        guard let client = clients[start.bundleID] else { return false }
        var window = start
        var restarted = false
        var previousItems: [String]?
        let directory = window.folder(in: folder)
        // Only this window's task writes its folder (the run holds the lock): a partial page there is a killed
        // fetch's, never finished and never to be.
        SpoolWriter.removePartials(in: directory)
        // A page stored by a fetch that was killed before it recorded the page: go on from its token.
        while let stored = Self.storedPage(directory, number: window.pages + 1) {
            tell(
                .page(
                    window: window, number: window.pages + 1, next: stored.token, hasMore: stored.hasMore,
                    count: stored.items.count, repeated: false))
            window.pages += 1
            window.nextToken = stored.token
            previousItems = stored.items
            if !stored.hasMore { return true }
        }
        while stop.signal == nil {
            let page: NotificationHistoryPage
            do {
                page = try await client.notificationHistory(
                    start: window.start, end: window.end, onlyFailures: window.onlyFailures,
                    paginationToken: window.nextToken)
            } catch is PaginationTokenRefused where !restarted {
                restarted = true
                window.nextToken = nil
                window.pages = 0
                previousItems = nil
                tell(.restarted(window: window))
                continue
            }
            let items = Self.items(page.body)
            // Apple sent the page before again: its notifications are stored already.
            let repeated = previousItems != nil && items == previousItems && !items.isEmpty
            // An empty last page holds nothing to archive (most days of most windows): no file.
            if !repeated && !items.isEmpty {
                try SpoolWriter.prepare(directory)
                try SpoolWriter.store(page.body, name: NotificationWindow.pageName(window.pages + 1), in: directory)
                window.pages += 1
            }
            tell(
                .page(
                    window: window, number: window.pages, next: page.paginationToken, hasMore: page.hasMore,
                    count: repeated ? 0 : page.count, repeated: repeated))
            window.nextToken = page.paginationToken
            previousItems = items
            if !page.hasMore { return true }
        }
        return true
    }

    /// The signed payloads of a page, in order.
    static func items(_ body: [UInt8]) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let entries = object["notificationHistory"] as? [[String: Any]]
        else { return [] }
        return entries.map { $0["signedPayload"] as? String ?? "" }
    }

    /// A page file already in the window's folder: its items, `hasMore` and pagination token.
    static func storedPage(_ directory: String, number: Int) -> (items: [String], hasMore: Bool, token: String?)? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + NotificationWindow.pageName(number)),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        let hasMore = object["hasMore"] as? Bool ?? false
        let token = object["paginationToken"] as? String
        if hasMore && token == nil { return nil }
        return (items(Array(data)), hasMore, token)
    }
}
