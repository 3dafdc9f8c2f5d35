internal import Foundation

/// What one ingest run knows for certain about stored transactions, so that later files stage fewer copies.
///
/// After a file commits, each transaction it staged is *settled* at the identity of its first staged copy `I`,
/// unless the merge reported one of the file's copies as a conflict, or spoke of the transaction's state (a refund,
/// revocation or upgrade: `purchase_state`, where what Apple signed last stands). For a settled transaction the stored
/// row agrees with `I` on product, purchase second and original transaction (else `I` would have conflicted), and
/// carries `I`'s refund and upgrade marks (a transaction with none, never marked before). A later copy with identity
/// `I` would therefore make the merge do nothing at all, and is not staged, unless a marked copy of its transaction
/// came before it in its own file (`StagedCopy.saysState`: then it may be the reversal). Skipping only copies that provably cause no server work leaves the
/// stored result exactly what staging every file's copies gives, however files are grouped into runs; concurrent
/// ingests cannot undo it either (they only add rows and marks).
///
/// Identities are compared by 64-bit hash: a collision (about 2⁻⁶⁴ per comparison) would skip a copy that differs.
/// Memory is bounded: past `limit` transactions the cache starts over (forgetting costs only skipped work).
///
/// Two files' threads use it at once (`FileRun`): one records what it committed while the next one stages. Either
/// view is sound for the next file, whose statements run only after the earlier file has ended.
final class SettledTransactions: @unchecked Sendable {
    // @unchecked: `identities` is read and written only while `lock` is held.
    private let lock = NSLock()
    /// Transactions remembered at most: keeps the table within 2²⁰ buckets (about 25 MiB), whatever the run's size.
    static let limit = 750_000
    private var identities: [TransactionKey: Int] = [:]
    /// A transaction whose copies keep being staged for the rest of the run (its stored row disagreed with a copy).
    private static let unsettled = Int.min

    /// Whether the merge would do nothing with this copy.
    func isSettled(_ copy: StagedCopy) -> Bool {
        guard !copy.saysState && copy.identity != Self.unsettled else { return false }
        lock.lock()
        defer { lock.unlock() }
        return identities[copy.transaction] == copy.identity
    }

    /// Records a committed file: the copies it staged, in file order, and the transactions the merge found
    /// conflicting copies of.
    func record(committed copies: [StagedCopy], conflicting: [TransactionKey]) {
        lock.lock()
        defer { lock.unlock() }
        if identities.count + copies.count > Self.limit { identities.removeAll(keepingCapacity: true) }
        for copy in copies where identities[copy.transaction] == nil {
            identities[copy.transaction] = copy.identity
        }
        for transaction in conflicting { identities[transaction] = Self.unsettled }
    }
}
