internal import Foundation

/// One page of Apple's notification history, its bytes exactly as Apple sent them.
public struct NotificationHistoryPage: Sendable {
    /// The response body (`{"notificationHistory": […], "hasMore", "paginationToken"}`), verbatim.
    public let body: [UInt8]
    /// Whether Apple has more pages.
    public let hasMore: Bool
    /// The token that asks for the next page.
    public let paginationToken: String?
    /// The notifications on the page.
    public let count: Int
}

/// Why Apple refused a pagination token: the window must be asked for again from its first page.
public struct PaginationTokenRefused: Error, Sendable, CustomStringConvertible {
    /// Apple's error code: 4000014 (invalid) or 4000017 (expired).
    public let code: Int
    public var description: String { "Apple refused the pagination token (\(code == 4000017 ? "expired" : "invalid"))" }
}

/// The App Store Server API's history endpoints.
public struct AppStoreServerClient: Sendable {
    let http: AppleHTTPClient

    public init(http: AppleHTTPClient) { self.http = http }

    /// Apple's hosts: production and sandbox.
    public static func defaultURL(environment: String) -> String {
        environment == "Sandbox"
            ? "https://api.storekit-sandbox.itunes.apple.com" : "https://api.storekit.itunes.apple.com"
    }

    /// One page of `POST /inApps/v1/notifications/history` for the window `start..<end` (milliseconds since 1970);
    /// `onlyFailures` asks for the notifications Apple never delivered.
    public func notificationHistory(
        start: Int64, end: Int64, onlyFailures: Bool, paginationToken: String?
    ) async throws -> NotificationHistoryPage {
        var request: [String: Any] = ["startDate": start, "endDate": end]
        if onlyFailures { request["onlyFailures"] = true }
        let json = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
        let response = try await http.post(
            "/inApps/v1/notifications/history", query: paginationToken.map { [("paginationToken", $0)] } ?? [],
            json: Array(json))
        guard response.status == 200 else {
            let code =
                (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["errorCode"] as? Int
            if response.status == 400, let code, code == 4000014 || code == 4000017 {
                throw PaginationTokenRefused(code: code)
            }
            throw AppleAPIError.unexpectedStatus(
                request: "notification history", status: response.status, detail: response.errorDetail)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let items = object["notificationHistory"] as? [Any]
        else {
            throw AppleAPIError.malformedResponse(request: "notification history", problem: "is not a history page")
        }
        let hasMore = object["hasMore"] as? Bool ?? false
        let token = object["paginationToken"] as? String
        if hasMore && (token == nil || token == paginationToken) {
            throw AppleAPIError.malformedResponse(
                request: "notification history", problem: "says it has more but gives no new pagination token")
        }
        return NotificationHistoryPage(
            body: response.body, hasMore: hasMore, paginationToken: token, count: items.count)
    }
}

/// One page of a transaction's history or refund history, its bytes exactly as Apple sent them.
public struct HistoryPage: Sendable {
    /// `{"revision", "hasMore", "bundleId", "appAppleId", "environment", "signedTransactions": […]}`, verbatim.
    public let body: [UInt8]
    /// The token that asks for what comes after this page (and, next time, for what changed since).
    public let revision: String?
    public let hasMore: Bool
    /// Signed transactions on the page.
    public let count: Int
}

extension AppStoreServerClient {
    /// Which history: every transaction of the customer (`/inApps/v2/history`), or the refunded ones
    /// (`/inApps/v2/refund/lookup`).
    public enum HistoryKind: String, Sendable {
        case transactions
        case refunds

        var path: String { self == .transactions ? "/inApps/v2/history/" : "/inApps/v2/refund/lookup/" }
    }

    /// One page of `kind` history for `transactionID`, after `revision` (nil: from the start). Nil when Apple does not
    /// know the transaction (404, e.g. it belongs to another app).
    public func history(_ kind: HistoryKind, transactionID: String, revision: String?) async throws -> HistoryPage? {
        guard !transactionID.isEmpty, transactionID.allSatisfy({ $0.isNumber }) else {
            throw AppleAPIError.malformedResponse(
                request: "\(kind.rawValue) history", problem: "names no transaction id")
        }
        var query: [(String, String)] = []
        if let revision { query.append(("revision", revision)) }
        if kind == .transactions { query.append(("sort", "ASCENDING")) }
        let response = try await http.get(kind.path + transactionID, query: query)
        if response.status == 404 { return nil }
        guard response.status == 200 else {
            throw AppleAPIError.unexpectedStatus(
                request: "\(kind.rawValue) history of \(transactionID)", status: response.status,
                detail: response.errorDetail)
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            let transactions = object["signedTransactions"] as? [Any]
        else {
            throw AppleAPIError.malformedResponse(
                request: "\(kind.rawValue) history of \(transactionID)", problem: "is not a history page")
        }
        let revisionOut = object["revision"] as? String
        let hasMore = object["hasMore"] as? Bool ?? false
        if hasMore && (revisionOut == nil || revisionOut == revision) {
            throw AppleAPIError.malformedResponse(
                request: "\(kind.rawValue) history of \(transactionID)",
                problem: "says it has more but gives no new revision")
        }
        return HistoryPage(body: response.body, revision: revisionOut, hasMore: hasMore, count: transactions.count)
    }
}
