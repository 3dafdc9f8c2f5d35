internal import AppStoreFormats

/// Remembers, for one file, the last staged copy of each transaction, so that only copies the server must look at are
/// staged: the first one, and each later one that differs from the copy staged before it (a conflict; a refund,
/// upgrade or expiry; a refund gone again, which is how Apple says it reversed one). In real data a subscriber's every
/// receipt repeats their whole history; most copies are exact repeats and need no server work at all.
struct TransactionCopies {
    private var lastCopies: [TransactionKey: TransactionIdentity] = [:]
    /// Transactions with a refund, revocation or upgrade among this file's copies so far.
    private var marked: Set<TransactionKey> = []

    /// The copy as a staging candidate when it must be staged for the server (recording it as its transaction's
    /// last staged copy); nil for a repeat of that copy.
    mutating func stagingCandidate(_ entry: TransactionEntry, environment: String) -> StagedCopy? {
        let transaction = TransactionKey(environment: environment, transactionID: entry.transactionID)
        let identity = TransactionIdentity(entry)
        if let last = lastCopies[transaction], identity == last { return nil }
        lastCopies[transaction] = identity
        if identity.isMarked { marked.insert(transaction) }
        return StagedCopy(
            transaction: transaction, identity: identity.hashValue,
            saysState: identity.isMarked || (!marked.isEmpty && marked.contains(transaction)))
    }
}

/// What the merge compares between copies of one transaction: the fields Apple never changes (a difference is a
/// conflict), the refund, revocation and upgrade marks, and whether an expiry and the signed fields are known (a later
/// copy may add them).
struct TransactionIdentity: Hashable {
    var productID: String
    /// To the second: copies with and without milliseconds are the same date.
    var purchaseSecond: Int64?
    var originalTransactionID: String?
    var isCancelled: Bool
    var isUpgraded: Bool
    var hasExpiry: Bool
    /// A signed copy fills what a verifyReceipt copy lacks (price, storefront…); a revocation may take back a
    /// family-shared copy without being a refund.
    var isSigned: Bool
    var isRevoked: Bool

    init(_ entry: TransactionEntry) {
        productID = entry.productID
        purchaseSecond = entry.purchaseDate.map { Self.second(of: $0) }
        originalTransactionID = entry.originalTransactionID
        isCancelled = entry.cancellationDate != nil
        isUpgraded = entry.isUpgraded == true
        hasExpiry = entry.expiresDate != nil
        isSigned = entry.signed != nil
        isRevoked = entry.signed?.revocationDate != nil
    }

    /// A refund, revocation or upgrade: a copy that speaks of the transaction's state.
    var isMarked: Bool { isCancelled || isUpgraded || isRevoked }

    private static func second(of timestamp: Timestamp) -> Int64 {
        let milliseconds = timestamp.millisecondsSince1970
        return milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }
}

/// A transaction's (environment, transaction id) as 128 bits, so that a run can remember millions of them in little
/// memory. Two independent SipHash values: a collision is as likely as two random 128-bit numbers being equal.
struct TransactionKey: Hashable {
    private let high: Int
    private let low: Int

    init(environment: String, transactionID: String) {
        var first = Hasher()
        first.combine(environment)
        first.combine(transactionID)
        var second = Hasher()
        second.combine(0x9E37_79B9_7F4A_7C15 as UInt64)  // a different prefix makes an independent hash
        second.combine(environment)
        second.combine(transactionID)
        high = first.finalize()
        low = second.finalize()
    }
}

/// One staged row's transaction and the hash of its identity, for `SettledTransactions`.
struct StagedCopy {
    let transaction: TransactionKey
    let identity: Int
    /// The copy is marked, or an earlier copy of its transaction in this file was: it may move the transaction's
    /// state (a copy without the refund, signed after it, is a reversal), so it is staged even when settled.
    var saysState = false
}
