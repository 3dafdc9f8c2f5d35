internal import Foundation

/// What one ingest run knows for certain about stored transactions, so that later files stage fewer copies.
///
/// After a file commits, each transaction it staged is *settled* at the identity of its first staged copy `I`,
/// unless the merge reported one of the file's copies as a conflict, or spoke of the transaction's state (a refund,
/// revocation or upgrade: `purchase_state`, where what Apple signed last stands). For a settled transaction the stored
/// row agrees with `I` on product, purchase second and original transaction (else `I` would have conflicted), and
/// carries `I`'s refund and upgrade marks (a transaction with none, never marked before). A later copy with identity
/// `I` would therefore make the merge do nothing at all, and is not staged, unless a marked copy of its transaction
/// came before it in its own file (`StagedCopy.saysState`: then it may be the reversal). Skipping only copies that
/// provably cause no server work leaves the stored result exactly what staging every file's copies gives, however
/// files are grouped into runs; concurrent ingests cannot undo it either (they only add rows and marks).
///
/// Identities are compared by 64-bit hash: a collision (about 2⁻⁶⁴ per comparison) would skip a copy that differs.
/// Memory is bounded: past `limit` transactions the cache starts over (forgetting costs only skipped work).
///
/// Two files' threads use it at once (`FileRun`): file N+1 stages while file N's statements still run. What N staged
/// may yet unsettle a transaction (N's refund of a transaction an earlier file settled makes N+1's unrefunded copy
/// the reversal), so N *holds* its staged transactions from the end of its load until it has recorded what it
/// committed, and a held transaction is never settled.
final class SettledTransactions: @unchecked Sendable {
    // @unchecked: `identities` and `held` are read and written only while `lock` is held.
    private let lock = NSLock()
    /// Transactions remembered at most: keeps the table within 2²⁰ buckets (about 25 MiB), whatever the run's size.
    static let limit = 750_000
    private var identities: [TransactionKey: Int] = [:]
    /// Transactions a file still running its statements staged, with how many of its copies (see `hold`).
    private var held: [TransactionKey: Int] = [:]
    /// A transaction whose copies keep being staged for the rest of the run (its stored row disagreed with a copy).
    private static let unsettled = Int.min

    /// Whether the merge would do nothing with this copy.
    func isSettled(_ copy: StagedCopy) -> Bool {
        guard !copy.saysState && copy.identity != Self.unsettled else { return false }
        lock.lock()
        defer { lock.unlock() }
        return held[copy.transaction] == nil && identities[copy.transaction] == copy.identity
    }

    /// A file's loaded copies, whose statements are about to run while the next file stages: none of their
    /// transactions is settled until `release`.
    func hold(_ copies: [StagedCopy]) {
        lock.lock()
        defer { lock.unlock() }
        for copy in copies { held[copy.transaction, default: 0] += 1 }
    }

    /// Ends a `hold`, once the file has recorded what it committed (or rolled back, when there is nothing to record).
    func release(_ copies: [StagedCopy]) {
        lock.lock()
        defer { lock.unlock() }
        for copy in copies {
            let left = held[copy.transaction, default: 1] - 1
            held[copy.transaction] = left > 0 ? left : nil
        }
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
