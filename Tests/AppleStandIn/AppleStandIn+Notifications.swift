internal import Foundation
internal import Synchronization

/// `POST /inApps/v1/notifications/history` as Apple documents it: the request body's `startDate`, `endDate`
/// (milliseconds) and `onlyFailures`; at most 20 records a page, each `{"signedPayload", "sendAttempts"}`; `hasMore`
/// and a `paginationToken` that must come back with the same body; 180 days of history at most.
extension AppleStandIn {
    /// A notification Apple sent: its signed payload, when it was signed, and how its delivery went.
    package struct SentNotification: Sendable {
        package var bundleID: String
        package var signedPayload: String
        package var signedDate: Int64
        /// `(attemptDate, sendAttemptResult)`, e.g. `SUCCESS`, `TIMED_OUT`, `NO_RESPONSE`.
        package var attempts: [(Int64, String)]

        package init(bundleID: String, signedPayload: String, signedDate: Int64, attempts: [(Int64, String)]) {
            self.bundleID = bundleID
            self.signedPayload = signedPayload
            self.signedDate = signedDate
            self.attempts = attempts
        }

        var wasDelivered: Bool { attempts.contains { $0.1 == "SUCCESS" } }
    }

    /// What a pagination token stands for.
    struct Cursor {
        var bundleID: String
        var body: [String: Int64]
        var onlyFailures: Bool
        var offset: Int
        var expired = false
    }

    static let pageSize = 20
    static let historyDays: Int64 = 180

    /// Adds notifications to the history.
    package func addNotifications(_ notifications: [SentNotification]) {
        state.withLock { state in
            state.notifications += notifications
            // Kept in signing order, so a window is found by binary search, not by reading all of history.
            state.notifications.sort { $0.signedDate < $1.signedDate }
        }
    }

    /// The signed payloads of the notifications with these UUIDs (what Apple posted to the servers), in that order.
    package func signedPayloads(of uuids: [String]) throws -> [String] {
        let all = state.withLock { $0.notifications }
        return uuids.compactMap { uuid in
            all.first { notification in
                let parts = notification.signedPayload.split(separator: ".")
                guard parts.count == 3, let payload = TokenCheck.decode(parts[1]),
                    let object = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
                else { return false }
                return object["notificationUUID"] as? String == uuid
            }?.signedPayload
        }
    }

    /// The next request that brings a pagination token finds it expired (Apple's `PaginationTokenExpiredError`).
    package func expireNextToken() { state.withLock { $0.expireNextToken = true } }

    func notificationHistory(bundleID: String, token: String?, body: [UInt8], now: Date = Date()) -> StandInResponse {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let start = (object["startDate"] as? NSNumber)?.int64Value,
            let end = (object["endDate"] as? NSNumber)?.int64Value
        else { return .serverError(400, code: 4_000_000, message: "Invalid request.") }
        let onlyFailures = object["onlyFailures"] as? Bool ?? false
        let nowMilliseconds = Int64(now.timeIntervalSince1970 * 1000)
        guard start >= nowMilliseconds - Self.historyDays * 86_400_000 else {
            return .serverError(
                400, code: 4_000_012, message: "Invalid request. The start date is too far in the past.")
        }
        guard start < end else {
            return .serverError(400, code: 4_000_013, message: "Invalid request. The start date is after the end date.")
        }
        return state.withLock { state -> StandInResponse in
            var offset = 0
            if let token {
                guard let cursor = state.cursors[token], cursor.bundleID == bundleID,
                    cursor.body == ["startDate": start, "endDate": end], cursor.onlyFailures == onlyFailures
                else {
                    return .serverError(
                        400, code: 4_000_014, message: "Invalid request. The pagination token is invalid.")
                }
                if state.expireNextToken {
                    state.expireNextToken = false
                    state.cursors[token]?.expired = true
                }
                guard state.cursors[token]?.expired != true else {
                    return .serverError(
                        400, code: 4_000_017, message: "Invalid request. The pagination token is expired.")
                }
                offset = cursor.offset
                if state.repeatNextPage {
                    state.repeatNextPage = false
                    offset = max(0, offset - Self.pageSize)
                }
            }
            var low = 0
            var high = state.notifications.count
            while low < high {
                let middle = (low + high) / 2
                if state.notifications[middle].signedDate < start { low = middle + 1 } else { high = middle }
            }
            let limit = min(end, nowMilliseconds)
            let matching = state.notifications[low...].prefix { $0.signedDate < limit }.filter {
                $0.bundleID == bundleID && (!onlyFailures || !$0.wasDelivered)
            }
            let page = matching.dropFirst(offset).prefix(Self.pageSize)
            let next = offset + page.count
            let newToken = UUID().uuidString
            state.cursors[newToken] = Cursor(
                bundleID: bundleID, body: ["startDate": start, "endDate": end], onlyFailures: onlyFailures,
                offset: next)
            let items: [[String: Any]] = page.map { notification in
                [
                    "signedPayload": notification.signedPayload,
                    "sendAttempts": notification.attempts.map { ["attemptDate": $0.0, "sendAttemptResult": $0.1] },
                ]
            }
            let response: [String: Any] = [
                "notificationHistory": items, "hasMore": next < matching.count, "paginationToken": newToken,
            ]
            let data = (try? JSONSerialization.data(withJSONObject: response, options: [.sortedKeys])) ?? Data()
            return StandInResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
        }
    }
}
