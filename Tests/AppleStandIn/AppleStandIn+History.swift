internal import Foundation
internal import Synchronization

/// `GET /inApps/v2/history/{transactionId}` and `GET /inApps/v2/refund/lookup/{transactionId}` as Apple documents
/// them: the customer's signed transactions of the app the token's `bid` names, 20 a page, oldest first, with a
/// `revision` that asks for what comes after (also, later, for what was added since); 404 for a transaction the app
/// does not know.
extension AppleStandIn {
    /// A signed transaction in a customer's history.
    package struct HistoryEntry: Sendable {
        package var bundleID: String
        /// Any transaction id of the customer's that names this history (the original one, usually).
        package var transactionIDs: Set<String>
        package var signedTransaction: String
        package var refunded: Bool

        package init(bundleID: String, transactionIDs: Set<String>, signedTransaction: String, refunded: Bool = false) {
            self.bundleID = bundleID
            self.transactionIDs = transactionIDs
            self.signedTransaction = signedTransaction
            self.refunded = refunded
        }
    }

    /// Appends to the histories.
    package func addHistory(_ entries: [HistoryEntry]) { state.withLock { $0.history += entries } }

    func history(refunds: Bool, transactionID: String, bundleID: String, revision: String?) -> StandInResponse {
        guard transactionID.allSatisfy(\.isNumber), !transactionID.isEmpty else {
            return .serverError(400, code: 4_000_006, message: "Invalid transaction id.")
        }
        let entries = state.withLock { $0.history }.filter {
            $0.bundleID == bundleID && $0.transactionIDs.contains(transactionID) && (!refunds || $0.refunded)
        }
        guard
            state.withLock({ $0.history }).contains(where: {
                $0.bundleID == bundleID && $0.transactionIDs.contains(transactionID)
            })
        else { return .serverError(404, code: 4_040_010, message: "Transaction id not found.") }
        var offset = 0
        if let revision {
            guard revision.hasPrefix("r"), let number = Int(revision.dropFirst()), number >= 0 else {
                return .serverError(400, code: 4_000_005, message: "Invalid request revision.")
            }
            offset = number
        }
        let page = entries.dropFirst(offset).prefix(Self.pageSize)
        let next = offset + page.count
        var object: [String: Any] = [
            "revision": "r\(next)", "hasMore": next < entries.count,
            "signedTransactions": page.map(\.signedTransaction),
        ]
        if !refunds {
            object["bundleId"] = bundleID
            object["appAppleId"] = 333
            object["environment"] = "Production"
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return StandInResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(data))
    }
}
