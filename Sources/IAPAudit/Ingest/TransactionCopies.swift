internal import AppStoreFormats

/// Remembers, for one file, the first copy of each transaction, so that only copies the server must look at are
/// staged: the first one, later ones that disagree with it on identity (a conflict), and later ones that carry a
/// refund or upgrade the first did not. In real data a subscriber's every receipt repeats their whole history; most
/// copies are exact repeats and need no server work at all.
struct TransactionCopies {
    private struct Identity: Equatable {
        var productID: String
        /// To the second: copies with and without milliseconds are the same date.
        var purchaseSecond: Int64?
        var originalTransactionID: String?
        var isCancelled: Bool
        var isUpgraded: Bool
    }

    private var firstCopies: [String: Identity] = [:]

    /// Whether this copy must be staged for the server; records it when it is the first of its transaction.
    mutating func needsStaging(_ entry: TransactionEntry, environment: String) -> Bool {
        let key = environment + "\u{1}" + entry.transactionID
        let identity = Identity(
            productID: entry.productID,
            purchaseSecond: entry.purchaseDate.map { Self.second(of: $0) },
            originalTransactionID: entry.originalTransactionID, isCancelled: entry.cancellationDate != nil,
            isUpgraded: entry.isUpgraded == true)
        guard let first = firstCopies[key] else {
            firstCopies[key] = identity
            return true
        }
        return identity != first
    }

    private static func second(of timestamp: Timestamp) -> Int64 {
        let milliseconds = timestamp.millisecondsSince1970
        return milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }
}
